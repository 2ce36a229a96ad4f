import Logging
import PostgresNIO

/// A named schema change. Append-only, like the SQLite store's: once released, a migration's
/// name and statements never change; a new change is a new entry at the end of `all`.
struct PostgresMigration: Sendable {
    let name: String
    let statements: [String]
}

enum PostgresMigrations {
    static let all: [PostgresMigration] = [
        PostgresMigration(name: "v1_initial", statements: PostgresSchema.v1),
        PostgresMigration(name: "v2_search_purge", statements: PostgresSchema.v2),
        PostgresMigration(name: "v3_files", statements: PostgresSchema.v3),
        PostgresMigration(name: "v4_people_privacy", statements: PostgresSchema.v4),
        PostgresMigration(name: "v5_assistant", statements: PostgresSchema.v5),
        PostgresMigration(name: "v6_attachments", statements: PostgresSchema.v6),
        PostgresMigration(name: "v7_event_log", statements: PostgresSchema.v7),
        PostgresMigration(name: "v8_append_function", statements: PostgresSchema.v8),
        PostgresMigration(name: "v9_nodes", statements: PostgresSchema.v9),
        PostgresMigration(name: "v10_shared_limits", statements: PostgresSchema.v10),
        PostgresMigration(name: "v11_extraction_jobs", statements: PostgresSchema.v11),
        PostgresMigration(name: "v12_send_function", statements: PostgresSchema.v12),
        PostgresMigration(name: "v13_item_events", statements: PostgresSchema.v13),
        PostgresMigration(name: "v14_members_version", statements: PostgresSchema.v14),
        PostgresMigration(name: "v15_event_members_version", statements: PostgresSchema.v15),
    ]

    /// Any 64-bit constant of our own: the advisory lock that serialises migrations when two
    /// servers start on one database at once (the second waits, then finds nothing to do).
    static let lockKey: Int64 = 0x4D41_495F_5343_4845  // "MAI_SCHE"

    /// Applies every migration not yet recorded in `schema_migrations`, all in one transaction
    /// with their records, so a crash leaves the schema as it was. Applying again is a no-op.
    /// Returns the names applied now.
    @discardableResult
    static func apply(on connection: PostgresConnection, now: Int64, logger: Logger,
                      migrations: [PostgresMigration] = all) async throws -> [String] {
        try await connection.withTransaction(logger: logger) { db in
            try await db.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await db.query("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    name       TEXT PRIMARY KEY,
                    applied_at BIGINT NOT NULL
                )
                """, logger: logger)
            var applied: Set<String> = []
            for try await name in try await db.query("SELECT name FROM schema_migrations", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            // A database written by a newer server must not be silently used by an older one.
            if let unknown = applied.subtracting(migrations.map(\.name)).sorted().first {
                throw PostgresStoreError.schemaTooNew(migration: unknown)
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    // Constant DDL from this file's schema: no value of anyone's in it.
                    try await db.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await db.query("INSERT INTO schema_migrations (name, applied_at) VALUES (\(migration.name), \(now))",
                                   logger: logger)
                done.append(migration.name)
            }
            return done
        }
    }
}
