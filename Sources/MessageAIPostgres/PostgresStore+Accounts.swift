import PostgresNIO

/// Users and sessions, as the SQLite store keeps them (Sources/MessageAIServer/Store/SQLiteStore+Accounts.swift).
extension PostgresStore {
    static let userColumns = "u.id, u.username, u.email, u.display_name, u.password_hash, u.created_at, u.last_seen, u.time_zone"

    static func user(_ row: PostgresRow) throws -> User {
        let (id, username, email, display, hash, created, seen, zone) =
            try row.decode((Int64, String, String, String, String, Int64, Int64, String).self)
        return User(id: id, username: username, email: email, displayName: display, passwordHash: hash,
                    createdAt: created, lastSeen: seen, timeZone: zone)
    }

    /// Creates a user and returns its id. Usernames and emails are unique ignoring case: a
    /// clash is `usernameTaken` or `emailTaken`, decided by the unique index (two nodes
    /// registering one name at once: one wins, the other hears which field clashed).
    public func createUser(username: String, email: String, displayName: String, passwordHash: String,
                           now: Int64) async throws(PostgresStoreError) -> Int64 {
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
                return try row.decode(Int64.self)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                let constraint = error.serverInfo?[.constraintName] ?? ""
                throw constraint.contains("email") ? PostgresStoreError.emailTaken : PostgresStoreError.usernameTaken
            }
        }
    }

    public func user(id: Int64) async throws(PostgresStoreError) -> User? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.id = \(id)", logger: logger)
                .map(Self.user)
        }
    }

    /// By username or by email, ignoring case.
    public func user(login: String) async throws(PostgresStoreError) -> User? {
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
    public func user(username: String) async throws(PostgresStoreError) -> User? {
        let key = username.lowercased()
        return try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.userColumns) FROM users u WHERE u.username_lower = \(key)",
                                      logger: logger).map(Self.user)
        }
    }

    /// The name and its search words change in one statement: people search never finds a
    /// user by a name they no longer have. `notFound` when there is no such user (as SQLite).
    public func setDisplayName(userID: Int64, _ name: String) async throws(PostgresStoreError) {
        let words = SearchVector.document(name)
        try await updateUser("UPDATE users SET display_name = \(name), name_words = \(words)::tsvector WHERE id = \(userID) RETURNING 1")
    }

    /// The user's time zone, already checked by the caller.
    public func setTimeZone(userID: Int64, _ zone: String) async throws(PostgresStoreError) {
        try await updateUser("UPDATE users SET time_zone = \(zone) WHERE id = \(userID) RETURNING 1")
    }

    public func setPasswordHash(userID: Int64, _ hash: String) async throws(PostgresStoreError) {
        try await updateUser("UPDATE users SET password_hash = \(hash) WHERE id = \(userID) RETURNING 1")
    }

    /// Never moves back: two nodes reporting out of order keep the later time.
    public func setLastSeen(userID: Int64, _ time: Int64) async throws(PostgresStoreError) {
        try await updateUser("UPDATE users SET last_seen = GREATEST(last_seen, \(time)) WHERE id = \(userID) RETURNING 1")
    }

    /// Runs an UPDATE of one user's row that returns a row; `notFound` when it matched none.
    private func updateUser(_ query: PostgresQuery) async throws(PostgresStoreError) {
        try await perform { client, logger in
            guard try await client.firstRow(query, logger: logger) != nil else { throw PostgresStoreError.notFound }
        }
    }

    // MARK: Sessions

    static let sessionColumns = "id, user_id, token_hash, device, created_at, last_used_at"

    static func session(_ row: PostgresRow) throws -> Session {
        let (id, user, hash, device, created, used) = try row.decode((Int64, Int64, ByteBuffer, String, Int64, Int64).self)
        return Session(id: id, userID: user, tokenHash: Array(hash.readableBytesView), device: device,
                       createdAt: created, lastUsedAt: used)
    }

    public func createSession(userID: Int64, tokenHash: [UInt8], device: String, now: Int64) async throws(PostgresStoreError) -> Session {
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

    public func session(tokenHash: [UInt8]) async throws(PostgresStoreError) -> Session? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE token_hash = \(ByteBuffer(bytes: tokenHash))",
                                      logger: logger).map(Self.session)
        }
    }

    /// Oldest first.
    public func sessions(userID: Int64) async throws(PostgresStoreError) -> [Session] {
        try await perform { client, logger in
            try await client.allRows("SELECT \(unescaped: Self.sessionColumns) FROM sessions WHERE user_id = \(userID) ORDER BY id",
                                     logger: logger).map(Self.session)
        }
    }

    public func touchSession(id: Int64, now: Int64) async throws(PostgresStoreError) {
        try await perform { client, logger in
            _ = try await client.query("UPDATE sessions SET last_used_at = GREATEST(last_used_at, \(now)) WHERE id = \(id)", logger: logger)
        }
    }

    /// False when no such session of that user exists.
    public func deleteSession(id: Int64, userID: Int64) async throws(PostgresStoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("DELETE FROM sessions WHERE id = \(id) AND user_id = \(userID) RETURNING 1", logger: logger) != nil
        }
    }

    /// Deletes all the user's sessions except `keep`; returns the ids deleted.
    public func deleteSessions(userID: Int64, except keep: Int64) async throws(PostgresStoreError) -> [Int64] {
        try await perform { client, logger in
            try await client.allRows("DELETE FROM sessions WHERE user_id = \(userID) AND id <> \(keep) RETURNING id", logger: logger)
                .map { try $0.decode(Int64.self) }.sorted()
        }
    }
}
