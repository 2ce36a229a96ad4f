import Logging
import PostgresNIO
import Synchronization

/// Whether the database is there at all, asked when an operation has waited `probeAfter`.
///
/// Why: when PostgreSQL goes away, PostgresNIO's pool keeps a waiting query queued while it
/// retries connecting with backoff, so a caller learned only at the operation's deadline (5 s)
/// that nothing would come of it. A connection of our own, with a short connect timeout,
/// tells in a few milliseconds: refused, no socket, or "shutting down / starting up" means no
/// pool connection can run the operation either, so the caller gets `databaseUnavailable` at
/// once (nothing was committed: the operation never reached a connection, or the one it was
/// on is gone). Anything else (a slow but reachable database, too many connections) is not
/// a reason: the operation keeps waiting until its deadline, and commits if it can.
///
/// One probe at a time for all callers, and its answer is reused for `reuseFor`: a database
/// slow for a while is probed a few times a second, not once per waiting operation.
final class Reachability: Sendable {
    private struct State {
        var running: Task<String?, Never>?
        var last: (at: ContinuousClock.Instant, down: String?)?
    }
    private let state = Mutex(State())
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    static let reuseFor: Duration = .milliseconds(200)

    init(configuration: PostgresConnection.Configuration, connectTimeout: Duration, logger: Logger) {
        var configuration = configuration
        // Enough for a live database on a loaded machine; a dead one refuses at once.
        let (seconds, attoseconds) = min(connectTimeout, .milliseconds(500)).components
        configuration.options.connectTimeout = .milliseconds(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        self.configuration = configuration
        self.logger = logger
    }

    /// Nil when the database answers a login; else why it is unreachable.
    func check() async -> String? {
        let task: Task<String?, Never> = state.withLock { current in
            if let last = current.last, ContinuousClock.now - last.at < Self.reuseFor {
                let down = last.down
                return Task { down }
            }
            if let running = current.running { return running }
            let running = Task { [self] in
                let down = await probe()
                if let down { logger.notice("database probe: \(down)") }
                state.withLock { done in
                    done.last = (ContinuousClock.now, down)
                    done.running = nil
                }
                return down
            }
            current.running = running
            return running
        }
        return await task.value
    }

    private func probe() async -> String? {
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: -1, logger: logger)
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            switch error.code {
            case .connectionError:
                // Only a definite "nothing listens": a connect that timed out on a loaded
                // machine is no proof (seen: a false 77 under W2's load), so it keeps waiting.
                let why = String(describing: error.underlying.map { "\($0)" } ?? "").lowercased()
                let gone = ["connection refused", "no such file or directory"].contains { why.contains($0) }
                return gone ? PostgresStoreError.classify(error).description : nil
            case .server:
                let sqlState = error.serverInfo?[.sqlState] ?? ""
                // 57P01-57P03: shutting down, crashed, starting up; class 28 and 3D000: the
                // login is refused (a changed password), so the pool cannot connect either.
                if sqlState.hasPrefix("57P") || sqlState.hasPrefix("28") || sqlState == "3D000" {
                    return PostgresStoreError.classify(error).description
                }
                return nil
            default:
                return nil
            }
        } catch {
            return nil
        }
    }
}
