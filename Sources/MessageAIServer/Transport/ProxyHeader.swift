#if canImport(Glibc)
import Glibc
#endif

/// The PROXY protocol's version 2 header (haproxy.org/download/2.6/doc/proxy-protocol.txt), which
/// a TCP load balancer (HAProxy's `send-proxy-v2`) puts before the client's first byte: the
/// address the client connected from. Without it every client behind the balancer would share the
/// balancer's address, and with it one per-address login throttle and registration limit.
///
/// Pure: it reads bytes and says what they are; `ProxyHeaderReader` does the socket I/O.
/// Version 1 (text) is not accepted: version 2 has a fixed prefix with the length, so exactly
/// the header is read and not one byte of the TLS handshake behind it.
enum ProxyHeader {
    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    /// The signature, version and command, family, and the length of the rest.
    static let fixedLength = 16
    /// Longest header accepted: the addresses (216 bytes for AF_UNIX) and a few TLVs
    /// (HAProxy sends none unless told). Larger is refused rather than buffered.
    static let maxLength = 16 + 1024

    enum Parse: Equatable {
        /// The header is `total` bytes long, more than were given.
        case needMore(total: Int)
        /// A complete header of `length` bytes. `source` is the client's address, or nil when
        /// the balancer speaks for itself (LOCAL: its health checks) or gives no IP address
        /// (UNSPEC, AF_UNIX): the connection's own address is kept.
        case header(length: Int, source: String?)
        case invalid(String)
    }

    static func parse(_ bytes: [UInt8]) -> Parse {
        let known = min(bytes.count, signature.count)
        guard bytes.prefix(known).elementsEqual(signature.prefix(known)) else {
            return .invalid("no PROXY protocol v2 signature")
        }
        guard bytes.count >= fixedLength else { return .needMore(total: fixedLength) }
        let version = bytes[12] >> 4, command = bytes[12] & 0x0F
        guard version == 2 else { return .invalid("PROXY protocol version \(version)") }
        guard command <= 1 else { return .invalid("PROXY protocol command \(command)") }
        let total = fixedLength + Int(bytes[14]) << 8 + Int(bytes[15])
        guard total <= maxLength else { return .invalid("PROXY header of \(total) bytes") }
        guard bytes.count >= total else { return .needMore(total: total) }
        let body = bytes[fixedLength..<total]
        // LOCAL: a connection the balancer opened itself; any addresses are to be ignored.
        guard command == 1 else { return .header(length: total, source: nil) }
        switch bytes[13] >> 4 {
        case 1:
            guard body.count >= 12 else { return .invalid("PROXY header too short for IPv4") }
            return .header(length: total, source: text(AF_INET, Array(body.prefix(4))))
        case 2:
            guard body.count >= 36 else { return .invalid("PROXY header too short for IPv6") }
            return .header(length: total, source: text(AF_INET6, Array(body.prefix(16))))
        default:
            return .header(length: total, source: nil)
        }
    }

    /// The address as `SocketAddress.host` prints an accepted peer's, so that throttles and
    /// admin tables see one spelling whichever way the address came.
    private static func text(_ family: Int32, _ address: [UInt8]) -> String {
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        address.withUnsafeBytes { _ = inet_ntop(family, $0.baseAddress, &out, socklen_t(out.count)) }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
