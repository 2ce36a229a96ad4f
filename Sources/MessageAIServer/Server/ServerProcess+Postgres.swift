import Foundation
import Logging
import MessageAIPostgres

/// The PostgreSQL backend (`--database postgres://...`, issue 25): opened in the one place the
/// store is opened (`ServerProcess.openStore`). The data directory still holds the TLS key and
/// certificate and the file blobs; the database holds everything else.
extension ServerProcess {
    static func openPostgres(_ settings: ConnectionSettings, synchronous: CommitDurability,
                             logger: Logger) async throws -> OpenedStore {
        var configuration: PostgresStore.Configuration
        do {
            configuration = try settings.storeConfiguration()
        } catch {
            throw DatabaseStartFailure(line: "\(error)")
        }
        configuration.logger = logger
        // `--fsync`: an ack waits for the WAL flush either way (PostgreSQL has nothing between
        // `off`, which loses acks when the database process crashes, and a flush); `always`
        // also waits for a synchronous standby when the cluster has one.
        configuration.synchronousCommit = synchronous == .full ? .on : .local
        // The URL and where the password came from; never the password.
        logger.notice("database: \(settings), synchronous_commit \(configuration.synchronousCommit.rawValue)")
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        do {
            let store = try await PostgresStore.open(configuration, now: now)
            return OpenedStore(store: store)
        } catch {
            throw DatabaseStartFailure(error, at: settings.url)
        }
    }
}

/// Why the server could not start on its database, as the one line it prints before exiting
/// (`messageai-server: database unreachable at 127.0.0.1:5999: connection refused`).
public struct DatabaseStartFailure: Error, CustomStringConvertible {
    public let line: String
    public var description: String { line }

    init(line: String) { self.line = line }

    init(_ error: PostgresStoreError, at url: DatabaseURL) {
        let place = url.socketPath ?? (url.host.contains(":") ? "[\(url.host)]:\(url.port)" : "\(url.host):\(url.port)")
        switch error {
        case .databaseUnavailable(let reason):
            line = "database unreachable at \(place): \(Self.plain(reason))"
        case .loginRefused(let reason):
            line = "database at \(place) refused the login: \(reason)"
        default:
            line = "database at \(place): \(error)"
        }
    }

    /// NIO's connect errors name every address tried and the errno's words inside; the
    /// operator needs the words.
    static func plain(_ reason: String) -> String {
        let lower = reason.lowercased()
        for words in ["connection refused", "no such file or directory", "network is unreachable", "no route to host",
                      "connection reset by peer", "name or service not known", "host is down"] where lower.contains(words) {
            return words
        }
        if lower.contains("timed out") || lower.contains("timeout") { return "no answer (connect timed out)" }
        return reason
    }
}
