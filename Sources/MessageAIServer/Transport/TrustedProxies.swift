#if canImport(Glibc)
import Glibc
#endif

/// The addresses whose connections begin with a PROXY protocol v2 header (`--trusted-proxy`):
/// single addresses or CIDR ranges, IPv4 or IPv6. Only these may say where a client came from;
/// anyone else could claim any address and escape the per-address limits. A connection from a
/// trusted address without a header is refused: a balancer that forgot `send-proxy-v2` would
/// otherwise put the whole team behind its one address.
public struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let address: [UInt8]  // 4 or 16 bytes
        let prefix: Int
    }

    let ranges: [Range]

    /// An entry that is not an address or range; `description` names it.
    public struct BadEntry: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public init() { ranges = [] }

    /// "10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8"; throws a message naming the bad entry.
    public init(_ entries: [String]) throws(BadEntry) {
        ranges = try entries.map { entry throws(BadEntry) in
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.bytes(String(parts[0])) else {
                throw BadEntry("trusted proxy '\(entry)': not an IPv4 or IPv6 address")
            }
            let bits = address.count * 8
            guard parts.count == 2 else { return Range(address: address, prefix: bits) }
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else {
                throw BadEntry("trusted proxy '\(entry)': the prefix length must be 0...\(bits)")
            }
            return Range(address: address, prefix: prefix)
        }
    }

    /// Whether a peer's address (as accepted) is one of them. An IPv4 peer on an IPv6 socket
    /// (::ffff:a.b.c.d) matches the IPv4 ranges.
    func contains(_ host: String) -> Bool {
        guard var address = Self.bytes(host) else { return false }
        if address.count == 16, address.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            address = Array(address.suffix(4))
        }
        return ranges.contains { range in
            guard range.address.count == address.count else { return false }
            var left = range.prefix
            for (a, b) in zip(range.address, address) where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }
    }

    private static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
