import Logging
import PostgresNIO

/// The PostgreSQL store: plain records in, plain records out, every call `async` and bounded
/// by a deadline. It speaks no wire type and nothing of SQLite, so that the shared store
/// interface of issue 25 can put it beside the SQLite store unchanged.
///
/// One `PostgresClient` (a pool; one query at a time per connection) whose `run()` lives in a
/// task owned by the store: queries hang while it is not running, so `open` starts it before
/// the first query and `close` ends it.
public final class PostgresStore: Sendable {
    public struct Configuration: Sendable {
        /// TCP host and port; ignored when `unixSocketPath` is set.
        public var host: String = "127.0.0.1"
        public var port: Int = 5432
        /// The server's socket file (e.g. `DIR/.s.PGSQL.5432`), preferred when set.
        public var unixSocketPath: String?
        public var username: String
        /// Never logged. Nil for trust or peer authentication.
        public var password: String?
        public var database: String
        /// The longest a caller waits for one store operation, connecting included, before it
        /// gets `databaseUnavailable`.
        public var operationTimeout: Duration = .seconds(5)
        public var connectTimeout: Duration = .seconds(3)
        /// Pool size; PostgreSQL's default `max_connections` is 100.
        public var maximumConnections: Int = 8

        public init(username: String, database: String) {
            self.username = username
            self.database = database
        }
    }

    let client: PostgresClient
    let logger: Logger
    let operationTimeout: Duration
    private let runner: Task<Void, Never>

    private init(_ configuration: Configuration) {
        var logger = Logger(label: "messageai.postgres")
        // PostgresNIO logs queries and their binds at debug level: a message's text must not
        // reach a log, so nothing below notice is emitted.
        logger.logLevel = .notice
        var config: PostgresClient.Configuration
        if let path = configuration.unixSocketPath {
            config = .init(unixSocketPath: path, username: configuration.username,
                           password: configuration.password, database: configuration.database)
        } else {
            config = .init(host: configuration.host, port: configuration.port, username: configuration.username,
                           password: configuration.password, database: configuration.database, tls: .disable)
        }
        config.options.connectTimeout = configuration.connectTimeout
        config.options.maximumConnections = configuration.maximumConnections
        let client = PostgresClient(configuration: config, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.operationTimeout = configuration.operationTimeout
        self.runner = Task { await client.run() }
    }

    /// Connects and brings the schema up to date (see `PostgresMigrations`). Throws
    /// `databaseUnavailable` when the database cannot be reached within the operation timeout.
    public static func open(_ configuration: Configuration, now: Int64) async throws(PostgresStoreError) -> PostgresStore {
        let store = PostgresStore(configuration)
        do {
            _ = try await store.perform { client, logger in
                try await PostgresMigrations.apply(on: client, now: now, logger: logger)
            }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Ends the pool: open connections are closed, and any call still waiting fails.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// Runs one store operation under the deadline and sorts its failure into a typed error.
    func perform<T: Sendable>(_ operation: @escaping @Sendable (PostgresClient, Logger) async throws -> T) async throws(PostgresStoreError) -> T {
        let client = self.client, logger = self.logger
        do {
            return try await withDeadline(operationTimeout) { try await operation(client, logger) }
        } catch {
            throw PostgresStoreError.classify(error)
        }
    }
}

extension PostgresConnection {
    /// The first row a query returns, or nil when there is none (the rest are drained).
    func firstRow(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRow? {
        var first: PostgresRow?
        for try await row in try await self.query(query, logger: logger) where first == nil {
            first = row
        }
        return first
    }
}
