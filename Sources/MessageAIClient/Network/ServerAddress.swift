import Foundation
import MessageAISocket

/// One address of the server (`HOST:PORT`, `[v6]:PORT`). `--server` takes a comma-separated
/// list of them: the nodes of one service on one database, which the client fails over between.
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// As known_servers and /server write it.
    public var description: String { KnownServers.key(host: host, port: port) }

    /// `host1:7878,host2:7878` (spaces around commas allowed); nil when any part is malformed
    /// or the list is empty. Duplicates are dropped, the first order kept.
    public static func parseList(_ s: String) -> [ServerAddress]? {
        var out: [ServerAddress] = []
        for part in s.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let a = SocketAddress.parse(text) else { return nil }
            let address = ServerAddress(host: a.host, port: a.port)
            if !out.contains(address) { out.append(address) }
        }
        return out.isEmpty ? nil : out
    }
}
