import MessageAIStore
import PostgresNIO

/// Users and sessions, as the SQLite store keeps them (Sources/MessageAIServer/Store/SQLiteStore+Accounts.swift).
extension PostgresStore {
    static let userColumns = "u.id, u.username, u.email, u.display_name, u.password_hash, u.created_at, u.last_seen, u.time_zone"

    static func user(_ row: PostgresRow) throws -> UserRecord {
        let (id, username, email, display, hash, created, seen, zone) =
            try row.decode((UInt64, String, String, String, String, UInt64, UInt64, String).self)
        return UserRecord(id: id, username: username, email: email, displayName: display, passwordHash: hash,
                    createdAt: created, lastSeen: seen, timeZone: zone)
    }

    /// Creates a user. Usernames and emails are unique ignoring case: a clash is
    /// `usernameTaken` or `emailTaken`, decided by the unique index (two nodes registering one
    /// name at once: one wins, the other hears which field clashed).
    public func createUser(email: String, username: String, displayName: String, passwordHash: String,
                           now: UInt64) async throws(StoreError) -> UserRecord {
        let words = SearchVector.document(displayName)
        return try await perform { client, logger in
            do {
                guard let row = try await client.firstRow("""
                    INSERT INTO users (username, username_lower, email, email_lower, display_name, password_hash, created_at, name_words)
                    VALUES (\(username), \(username.lowercased()), \(email), \(email.lowercased()), \(displayName),
                            \(passwordHash), \(now), \(words)::tsvector)
                    RETURNING id
                    """, logger: logger) else {
                    throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no id")
                }
                return UserRecord(id: try row.decode(UInt64.self), username: username, email: email, displayName: displayName,
                                  passwordHash: passwordHash, createdAt: now, lastSeen: 0)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                let constraint = error.serverInfo?[.constraintName] ?? ""
                throw constraint.contains("email") ? PostgresStoreError.emailTaken : PostgresStoreError.usernameTaken
            }
        }
    }

    public func user(id: UInt64) async throws(StoreError) -> UserRecord? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.id = \(id)", logger: logger)
                .map(Self.user)
        }
    }

    /// By username or by email, ignoring case.
    public func user(login: String) async throws(StoreError) -> UserRecord? {
        let key = login.lowercased()
        return try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.username_lower = \(key)
                UNION ALL
                SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.email_lower = \(key)
                LIMIT 1
                """, logger: logger).map(Self.user)
        }
    }

    /// By username only, ignoring case.
    public func user(username: String) async throws(StoreError) -> UserRecord? {
        let key = username.lowercased()
        return try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.username_lower = \(key)",
                                      logger: logger).map(Self.user)
        }
    }

    /// The name and its search words change in one statement: people search never finds a
    /// user by a name they no longer have. `notFound` when there is no such user (as SQLite).
    public func setDisplayName(userID: UInt64, _ name: String) async throws(StoreError) {
        let words = SearchVector.document(name)
        try await updateUser("UPDATE users SET display_name = \(name), name_words = \(words)::tsvector WHERE id = \(userID) RETURNING 1")
    }

    /// The user's time zone, already checked by the caller.
    public func setTimeZone(userID: UInt64, _ zone: String) async throws(StoreError) {
        try await updateUser("UPDATE users SET time_zone = \(zone) WHERE id = \(userID) RETURNING 1")
    }

    public func setPasswordHash(userID: UInt64, _ hash: String) async throws(StoreError) {
        try await updateUser("UPDATE users SET password_hash = \(hash) WHERE id = \(userID) RETURNING 1")
    }

    /// Never moves back: two nodes reporting out of order keep the later time.
    public func setLastSeen(userID: UInt64, _ time: UInt64) async throws(StoreError) {
        try await updateUser("UPDATE users SET last_seen = GREATEST(last_seen, \(time)) WHERE id = \(userID) RETURNING 1")
    }

    /// Runs an UPDATE of one user's row that returns a row; `notFound` when it matched none.
    private func updateUser(_ query: PostgresQuery) async throws(StoreError) {
        try await perform { client, logger in
            guard try await client.firstRow(query, logger: logger) != nil else { throw PostgresStoreError.notFound }
        }
    }

    // MARK: Sessions

    static let sessionColumns = "id, user_id, token_hash, device, created_at, last_used_at"

    static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (id, user, hash, device, created, used) = try row.decode((UInt64, UInt64, ByteBuffer, String, UInt64, UInt64).self)
        return SessionRecord(id: id, userID: user, tokenHash: Array(hash.readableBytesView), device: device,
                       createdAt: created, lastUsedAt: used)
    }

    public func createSession(userID: UInt64, tokenHash: [UInt8], device: String, now: UInt64) async throws(StoreError) -> SessionRecord {
        try await perform { client, logger in
            guard let row = try await client.firstRow("""
                INSERT INTO sessions (user_id, token_hash, device, created_at, last_used_at)
                VALUES (\(userID), \(ByteBuffer(bytes: tokenHash)), \(device), \(now), \(now))
                RETURNING \(unescaped: Self.sessionColumns)
                """, logger: logger) else {
                throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no row")
            }
            return try Self.session(row)
        }
    }

    public func session(tokenHash: [UInt8]) async throws(StoreError) -> SessionRecord? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE token_hash = \(ByteBuffer(bytes: tokenHash))",
                                      logger: logger).map(Self.session)
        }
    }

    /// Oldest first.
    public func sessions(userID: UInt64) async throws(StoreError) -> [SessionRecord] {
        try await perform { client, logger in
            try await client.allRows("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE user_id = \(userID) ORDER BY id",
                                     logger: logger).map(Self.session)
        }
    }

    public func touchSession(id: UInt64, now: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.query("UPDATE sessions SET last_used_at = GREATEST(last_used_at, \(now)) WHERE id = \(id)", logger: logger)
        }
    }

    /// False when no such session of that user exists.
    public func deleteSession(id: UInt64, userID: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("DELETE FROM sessions WHERE id = \(id) AND user_id = \(userID) RETURNING 1", logger: logger) != nil
        }
    }

    /// Deletes all the user's sessions except `keep`; returns the ids deleted.
    public func deleteSessions(userID: UInt64, except keep: UInt64) async throws(StoreError) -> [UInt64] {
        try await perform { client, logger in
            try await client.allRows("DELETE FROM sessions WHERE user_id = \(userID) AND id <> \(keep) RETURNING id", logger: logger)
                .map { try $0.decode(UInt64.self) }.sorted()
        }
    }
}
