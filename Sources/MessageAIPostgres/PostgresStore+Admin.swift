import MessageAIStore
import PostgresNIO

/// The admin commands' capability (SQLiteStore+Admin.swift, issue 27). No `backup`
/// (`BackupStore`): PostgreSQL has no single-file copy to write from a connection, so
/// `admin backup` says to use `pg_dump` (README, "Operating a server").
extension PostgresStore {
    static func account(_ row: PostgresRow) throws -> AccountRecord {
        let (id, username, email, display, hash, created, seen, zone, disabledAt) =
            try row.decode((UInt64, String, String, String, String, UInt64, UInt64, String, UInt64).self)
        return AccountRecord(user: UserRecord(id: id, username: username, email: email, displayName: display, passwordHash: hash,
                                  createdAt: created, lastSeen: seen, timeZone: zone),
                       disabledAt: disabledAt)
    }

    /// Every account, by username, with whether it is disabled.
    public func accounts() async throws(StoreError) -> [AccountRecord] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.userColumns), u.disabled_at FROM users u ORDER BY u.username_lower COLLATE "C"
                """, logger: logger).map(Self.account)
        }
    }

    public func account(username: String) async throws(StoreError) -> AccountRecord? {
        let key = username.lowercased()
        return try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.userColumns), u.disabled_at FROM users u WHERE u.username_lower = \(key)",
                                      logger: logger).map(Self.account)
        }
    }

    /// Disables (`at` > 0, when) or enables (`at` == 0) an account; false when there is no such user.
    public func setDisabled(userID: UInt64, at: UInt64) async throws(StoreError) -> Bool {
        try await exists("UPDATE users SET disabled_at = \(at) WHERE id = \(userID) RETURNING 1")
    }

    /// False for a user that does not exist, as SQLite.
    public func isDisabled(userID: UInt64) async throws(StoreError) -> Bool {
        try await exists("SELECT 1 FROM users WHERE id = \(userID) AND disabled_at <> 0")
    }

    public func session(id: UInt64) async throws(StoreError) -> SessionRecord? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE id = \(id)", logger: logger)
                .map(Self.session)
        }
    }

    /// Deletes every session of the user; their ids, ascending.
    public func deleteAllSessions(userID: UInt64) async throws(StoreError) -> [UInt64] {
        try await ids("DELETE FROM sessions WHERE user_id = \(userID) RETURNING id").sorted()
    }

    /// Deletes an account as far as others' history allows, in one transaction: its sessions,
    /// contacts, kept declines, blocks and away mark go; its name and email are freed (the row
    /// becomes `deleted-ID`, display name "deleted user", a password hash nothing matches,
    /// disabled, found by no name search); the messages it sent stay under that name. Returns
    /// the new username; nil when there is no such user.
    public func deleteAccount(userID: UInt64, now: UInt64) async throws(StoreError) -> String? {
        let name = "deleted-\(userID)", email = "deleted-\(userID)@invalid"
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                guard try await db.firstRow("""
                    UPDATE users SET username = \(name), username_lower = \(name), email = \(email), email_lower = \(email),
                           display_name = 'deleted user', name_words = ''::tsvector, password_hash = '!', disabled_at = \(now)
                    WHERE id = \(userID) RETURNING 1
                    """, logger: logger) != nil else { return nil }
                try await db.query("DELETE FROM sessions WHERE user_id = \(userID)", logger: logger)
                try await db.query("DELETE FROM contacts WHERE owner_id = \(userID) OR contact_id = \(userID)", logger: logger)
                try await db.query("DELETE FROM kept_declines WHERE decliner_id = \(userID) OR requester_id = \(userID)", logger: logger)
                try await db.query("DELETE FROM blocks WHERE blocker_id = \(userID) OR blocked_id = \(userID)", logger: logger)
                try await db.query("DELETE FROM presence_status WHERE user_id = \(userID)", logger: logger)
                return name
            }
        }
    }

    /// Counts for `admin stats`, from one snapshot.
    public func statistics() async throws(StoreError) -> StoreStatistics {
        try await perform { client, logger in
            guard let row = try await client.firstRow("""
                SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM users WHERE disabled_at <> 0),
                       (SELECT count(*) FROM conversations), (SELECT count(*) FROM messages WHERE NOT deleted),
                       (SELECT count(*) FROM sessions), (SELECT count(*) FROM files WHERE complete),
                       (SELECT coalesce(sum(size), 0)::BIGINT FROM files WHERE complete),
                       pg_database_size(current_database())
                """, logger: logger) else { return StoreStatistics() }
            let (users, disabled, conversations, messages, sessions, files, bytes, size) =
                try row.decode((UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64).self)
            var statistics = StoreStatistics()
            statistics.users = Int(users); statistics.disabledUsers = Int(disabled); statistics.conversations = Int(conversations)
            statistics.messages = Int(messages); statistics.sessions = Int(sessions); statistics.files = Int(files)
            statistics.fileBytes = bytes; statistics.databaseBytes = size
            return statistics
        }
    }
}
