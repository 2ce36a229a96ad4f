import MessageAIStore
import Logging
import MessageAIStore
import PostgresNIO
import Synchronization

/// The PostgreSQL store: MessageAIStore's `Store`, `AssistantStore`, `FileStore` and
/// `AdminStore` with their shared records, every call `async` and bounded by a deadline, every
/// failure a `StoreError` (an unreachable database: `.unavailable`). It speaks no wire type.
///
/// One `PostgresClient` (a pool; one query at a time per connection) whose `run()` lives in a
/// task owned by the store: queries hang while it is not running, so `open` starts it before
/// the first query and `close` ends it.
public final class PostgresStore: Store, AssistantStore, FileStore, AdminStore, Sendable {
    public struct Configuration: Sendable, CustomStringConvertible {
        /// TCP host and port; ignored when `unixSocketPath` is set.
        public var host: String = "127.0.0.1"
        public var port: Int = 5432
        /// The server's socket file (e.g. `DIR/.s.PGSQL.5432`), preferred when set.
        public var unixSocketPath: String?
        public var username: String
        /// Never logged, never in `description`. Nil for trust or peer authentication.
        public var password: String?
        public var database: String
        /// TLS over TCP (see `TLSPolicy`); never used over a unix socket.
        public var tls: TLSPolicy = .disable
        /// The longest a caller waits for one store operation, connecting included, before it
        /// gets `databaseUnavailable`.
        public var operationTimeout: Duration = .seconds(5)
        /// How long a delete's bytes may stay in the files before the purge rewrites the
        /// messages table (PostgresStore+Purge.swift): the rewrite locks every send and read of
        /// messages while it runs, so deletes are gathered for this long, then purged at once.
        public var purgeDelay: Duration = .seconds(600)
        public var connectTimeout: Duration = .seconds(3)
        /// How long an operation waits before the store asks whether the database is there at
        /// all (PostgresStore+Reachability.swift): a database that went away is then reported
        /// after about this long rather than at `operationTimeout`.
        public var probeAfter: Duration = .milliseconds(250)
        /// `synchronous_commit` for the pool's sessions, sent at connect: when a commit (an
        /// ack) waits for the WAL flush. The server maps `--fsync` to it
        /// (ServerProcess+Postgres.swift); never `off`, which loses acknowledged commits when
        /// the database process crashes, weaker than SQLite's default.
        public var synchronousCommit: SynchronousCommit = .on
        /// Pool size; PostgreSQL's default `max_connections` is 100.
        public var maximumConnections: Int = 8
        /// Where the store logs (the server's logger). Whatever its level, nothing below
        /// `notice` is passed on: PostgresNIO logs queries with their binds (a message's text)
        /// at debug level.
        public var logger = Logger(label: "messageai.postgres")

        public init(username: String, database: String) {
            self.username = username
            self.database = database
        }

        /// Where it connects, without the password.
        public var description: String {
            let place = unixSocketPath ?? "\(host.contains(":") ? "[\(host)]" : host):\(port)"
            return "\(username)@\(place)/\(database) (tls: \(tls), password: \(password == nil ? "none" : "set"))"
        }
    }

    /// The values of `synchronous_commit` the store sets; both wait for the local WAL flush.
    public enum SynchronousCommit: String, Sendable {
        /// The local flush only, not a synchronous standby's (the same as `on` without one).
        case local
        /// The local flush, and a synchronous standby's when the cluster names one.
        case on
    }

    let client: PostgresClient
    let logger: Logger
    let operationTimeout: Duration
    let purgeDelay: Duration
    /// This process's id in the event log (`events.origin`, PostgresSchema+V7.swift): random
    /// per start, sent by every pooled connection as the setting `messageai.origin`.
    let origin: Int64
    /// The event log's wake-up connection (PostgresStore+Listen.swift); nil if it cannot be
    /// configured (the reader then polls only).
    let listenConfiguration: PostgresConnection.Configuration?
    let probeAfter: Duration
    let reachability: Reachability
    /// The send limit `append` applies (PostgresStore+Limits.swift); set by the server, which
    /// changes it on SIGHUP.
    let sendLimit = Mutex<SendLimit?>(nil)
    private let runner: Task<Void, Never>

    private init(_ configuration: Configuration, probe: PostgresConnection.Configuration) {
        let logger = Self.quiet(configuration.logger)
        let origin = Int64.random(in: 1...Int64.max)
        self.origin = origin
        var clientConfiguration = Self.clientConfiguration(configuration)
        // Appended: the pool already sends `synchronous_commit` (clientConfiguration).
        clientConfiguration.options.additionalStartupParameters += [("options", "-c messageai.origin=\(origin)")]
        var listen = try? Self.connectionConfiguration(configuration)
        listen?.options.additionalStartupParameters = [("application_name", Self.listenApplicationName)]
        self.listenConfiguration = listen
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.operationTimeout = configuration.operationTimeout
        self.purgeDelay = configuration.purgeDelay
        self.probeAfter = configuration.probeAfter
        self.reachability = Reachability(configuration: probe, connectTimeout: configuration.connectTimeout, logger: logger)
        self.runner = Task { await client.run() }
    }

    static func quiet(_ logger: Logger) -> Logger {
        var logger = logger
        if logger.logLevel < .notice { logger.logLevel = .notice }
        return logger
    }

    /// Connects, checks the login, and brings the schema up to date (see `PostgresMigrations`).
    /// The check and the migrations run on one connection of their own before the pool starts,
    /// so that a refused login or an unreachable server is reported at once with its cause
    /// (`loginRefused`, `databaseUnavailable`) rather than as a pool that never answers.
    public static func open(_ configuration: Configuration, now: UInt64) async throws(PostgresStoreError) -> PostgresStore {
        let logger = quiet(configuration.logger)
        logger.notice("connecting to PostgreSQL", metadata: ["database": "\(configuration)"])
        let probe: PostgresConnection.Configuration
        do {
            let connectionConfiguration = try connectionConfiguration(configuration)
            probe = connectionConfiguration
            _ = try await withDeadline(configuration.operationTimeout + configuration.connectTimeout) {
                let connection = try await PostgresConnection.connect(
                    configuration: connectionConfiguration, id: 0, logger: logger)
                do {
                    try await PostgresMigrations.apply(on: connection, now: Int64(now), logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            }
        } catch {
            throw PostgresStoreError.classify(error)
        }
        return PostgresStore(configuration, probe: probe)
    }

    /// The schema migrations recorded in the database, in the order applied (each once).
    public func appliedMigrations() async throws(StoreError) -> [String] {
        try await perform { client, logger in
            try await client.allRows("SELECT name FROM schema_migrations ORDER BY applied_at, name", logger: logger)
                .map { try $0.decode(String.self) }
        }
    }

    /// Whether the pool's connection answering this runs over TLS (for the TLS tests and a
    /// start-up check an operator may want).
    public func connectionUsesTLS() async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("SELECT coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false)",
                                      logger: logger)?.decode(Bool.self) ?? false
        }
    }

    /// A setting of the session answering this, as PostgreSQL shows it (`synchronous_commit`:
    /// for the tests, and an operator's check that `--fsync` took effect).
    public func sessionSetting(_ name: String) async throws(StoreError) -> String {
        try await perform { client, logger in
            try await client.firstRow("SELECT current_setting(\(name))", logger: logger)?.decode(String.self) ?? ""
        }
    }

    /// Ends the pool: open connections are closed, and any call still waiting fails.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// Runs one store operation under the deadline and sorts its failure into a typed error.
    /// `timeout` replaces the operation timeout for the few long operations (the purge).
    /// Failures come out as the shared interface's `StoreError` (`PostgresStoreError.storeError`).
    func perform<T: Sendable>(timeout: Duration? = nil,
                              _ operation: @escaping @Sendable (PostgresClient, Logger) async throws -> T) async throws(StoreError) -> T {
        let client = self.client, logger = self.logger, reachability = self.reachability
        do {
            return try await withDeadline(timeout ?? operationTimeout, probe: (probeAfter, { await reachability.check() })) {
                try await operation(client, logger)
            }
        } catch {
            throw PostgresStoreError.classify(error).storeError
        }
    }

    // MARK: PostgresNIO's configurations

    private static func clientConfiguration(_ configuration: Configuration) -> PostgresClient.Configuration {
        var config: PostgresClient.Configuration
        if let path = configuration.unixSocketPath {
            config = .init(unixSocketPath: path, username: configuration.username,
                           password: configuration.password, database: configuration.database)
        } else {
            config = .init(host: configuration.host, port: configuration.port, username: configuration.username,
                           password: configuration.password, database: configuration.database, tls: configuration.tls.clientTLS)
        }
        config.options.connectTimeout = configuration.connectTimeout
        config.options.maximumConnections = configuration.maximumConnections
        config.options.additionalStartupParameters = [("synchronous_commit", configuration.synchronousCommit.rawValue)]
        return config
    }

    private static func connectionConfiguration(_ configuration: Configuration) throws -> PostgresConnection.Configuration {
        var config: PostgresConnection.Configuration
        if let path = configuration.unixSocketPath {
            config = .init(unixSocketPath: path, username: configuration.username,
                           password: configuration.password, database: configuration.database)
        } else {
            config = .init(host: configuration.host, port: configuration.port, username: configuration.username,
                           password: configuration.password, database: configuration.database, tls: try configuration.tls.connectionTLS)
        }
        let (seconds, attoseconds) = configuration.connectTimeout.components
        config.options.connectTimeout = .milliseconds(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return config
    }
}

extension PostgresRowSequence {
    /// The first row, or nil when there is none (the rest are drained: the answer is read whole).
    func firstRow() async throws -> PostgresRow? {
        var first: PostgresRow?
        for try await row in self where first == nil { first = row }
        return first
    }
}

// One statement on a connection (inside a transaction) or on any connection of the pool: the
// same two reads, over PostgresRowSequence.
extension PostgresConnection {
    func firstRow(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRow? {
        try await self.query(query, logger: logger).firstRow()
    }

    func allRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

extension PostgresClient {
    func firstRow(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRow? {
        try await self.query(query, logger: logger).firstRow()
    }

    func allRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}
