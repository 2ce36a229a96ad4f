import Foundation
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// Opening a TCP connection. Runs on a background queue because name resolution and
/// connect may block; the caller gets a connected, non-blocking fd or the reason it failed.
enum SocketConnect {
    static func connect(host: String, port: UInt16, timeoutMs: Int32) -> Result<Int32, ConnectError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(ConnectError(message: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { lastError = String(cString: strerror(errno)); continue }
            setNonBlocking(fd)
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 || waitConnected(fd, timeoutMs, &lastError) {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .success(fd)
            }
            close(fd)
        }
        return .failure(ConnectError(message: "cannot connect to \(host):\(port): \(lastError)"))
    }

    private static func waitConnected(_ fd: Int32, _ timeoutMs: Int32, _ error: inout String) -> Bool {
        guard errno == EINPROGRESS else { error = String(cString: strerror(errno)); return false }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let n = poll(&p, 1, timeoutMs)
        if n <= 0 { error = n == 0 ? "timed out" : String(cString: strerror(errno)); return false }
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
        if soError != 0 { error = String(cString: strerror(soError)); return false }
        return true
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
}

struct ConnectError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension SocketConnect {
    /// A connected socket, with its TLS session unless the link is `--plaintext`.
    struct Secured {
        let fd: Int32
        let session: TLSSession?
        let info: TLSInfo?
    }

    /// The TLS handshake and trust decision on a connected socket (background queue); closes
    /// `fd` when it fails. Plaintext passes the socket through.
    static func secure(fd: Int32, host: String, port: UInt16, tls: TLSSettings, timeoutMs: Int32) -> Result<Secured, ConnectError> {
        if tls.plaintext { return .success(Secured(fd: fd, session: nil, info: nil)) }
        switch TLSConnect.handshake(fd: fd, host: host, port: port, settings: tls, timeoutMs: timeoutMs) {
        case .success(let (session, info)):
            return .success(Secured(fd: fd, session: session, info: info))
        case .failure(let failure):
            close(fd)
            return .failure(ConnectError(message: failure.message))
        }
    }
}
