#if canImport(Glibc)
import Glibc
#endif

/// A resolved IPv4 or IPv6 socket address, as getaddrinfo and accept give them.
public struct SocketAddress {
    public var storage = sockaddr_storage()
    public var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    public init() {}

    public var family: Int32 { Int32(storage.ss_family) }

    /// The numeric host (`127.0.0.1`, `::1`).
    public var host: String {
        var copy = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        withUnsafePointer(to: &copy) { p in
            if family == AF_INET6 {
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                    var bytes = a.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                }
            } else {
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var bytes = a.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                }
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var port: UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { p in
            family == AF_INET6
                ? p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                : p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Calls `body` with the address as the C socket calls take it.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// Parses `HOST:PORT`, `[V6]:PORT` (brackets required around an IPv6 address, as in URLs);
    /// nil when malformed. The host is returned without brackets.
    public static func parse(_ s: String) -> (host: String, port: UInt16)? {
        guard let colon = s.lastIndex(of: ":"), let port = UInt16(s[s.index(after: colon)...]), port != 0 else { return nil }
        var host = String(s[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // "::1:7878" is ambiguous: which colon starts the port?
        }
        guard !host.isEmpty else { return nil }
        return (host, port)
    }

    /// Every TCP address `host` resolves to, in getaddrinfo's order (IPv6 and IPv4), or why
    /// there is none. `passive`: for bind (numeric hosts only, no DNS lookup); brackets around
    /// an IPv6 literal are accepted.
    public static func resolve(_ host: String, port: UInt16, passive: Bool = false) -> Result<[SocketAddress], SocketError> {
        var name = host
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        if passive { hints.ai_flags = AI_PASSIVE | (name == "localhost" ? 0 : AI_NUMERICHOST) }
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(name, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(SocketError("cannot resolve \(host): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            guard let sa = a.pointee.ai_addr, Int(a.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size else { continue }
            var address = SocketAddress()
            withUnsafeMutableBytes(of: &address.storage) { dst in
                dst.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: Int(a.pointee.ai_addrlen)))
            }
            address.length = a.pointee.ai_addrlen
            out.append(address)
        }
        return out.isEmpty ? .failure(SocketError("cannot resolve \(host): no address")) : .success(out)
    }
}

/// Why a socket call failed, in words for the user.
public struct SocketError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
