import MessageAISQLite
/// A named schema change. Migrations are append-only: once released, a migration's name and
/// SQL never change; a new change is a new entry at the end of `Migrations.all`.
struct Migration {
    let name: String
    let sql: String
}

enum Migrations {
    static let all: [Migration] = [
        Migration(name: "v1_initial", sql: SchemaV1.sql),
        Migration(name: "v2_search_by_conversation", sql: SchemaV2.sql),
        Migration(name: "v3_index_after_commit", sql: SchemaV3.sql),
        Migration(name: "v4_contact_consent_and_blocks", sql: SchemaV4.sql),
        Migration(name: "v5_assistant", sql: SchemaV5.sql),
        Migration(name: "v6_message_changes", sql: SchemaV6.sql),
        Migration(name: "v7_files", sql: SchemaV7.sql),
        Migration(name: "v8_presence_status", sql: SchemaV8.sql),
        Migration(name: "v9_avatars", sql: SchemaV9.sql),
        Migration(name: "v11_speed", sql: SchemaV11.sql),
        Migration(name: "v12_client_ids", sql: SchemaV12.sql),
        Migration(name: "v13_kept_declines", sql: SchemaV13.sql),
        Migration(name: "v14_disabled_users", sql: SchemaV14.sql),
        Migration(name: "v15_search_words", sql: SchemaV15.sql),
        Migration(name: "v16_user_name_words", sql: SchemaV16.sql),
        Migration(name: "v17_user_time_zone", sql: SchemaV17.sql),
    ]

    /// Applies every migration not yet recorded in `schema_migrations`, each in its own
    /// transaction together with its record, so a crash leaves it fully applied or not at all.
    /// Applying again is a no-op. Returns the names applied now.
    @discardableResult
    static func apply(to db: Database, now: UInt64, migrations: [Migration] = all) throws -> [String] {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name TEXT PRIMARY KEY NOT NULL,
                applied_at INTEGER NOT NULL
            )
            """)
        let applied = Set(try appliedNames(db))
        let known = Set(migrations.map(\.name))
        // A database written by a newer server must not be silently used by an older one.
        if let unknown = applied.subtracting(known).sorted().first {
            throw StoreError.sqlite(code: 1, message: "database has migration '\(unknown)' unknown to this server (newer version?)")
        }
        var done: [String] = []
        for migration in migrations where !applied.contains(migration.name) {
            try db.transaction {
                try db.execute(migration.sql)
                try db.run("INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)", migration.name, now)
            }
            done.append(migration.name)
        }
        return done
    }

    static func appliedNames(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM schema_migrations ORDER BY applied_at, rowid") { $0.string(0) }
    }
}
