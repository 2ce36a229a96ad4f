import MessageAISQLite
import MessageAIProtocol

// Users and sessions.
extension SQLiteStore {
    public func createUser(email: String, username: String, displayName: String, passwordHash: String, now: UInt64) throws -> UserRecord {
        let id: UInt64
        do {
            id = try db.transaction {
                try db.run("""
                    INSERT INTO users (username, username_lower, email, email_lower, display_name, password_hash, created_at, last_seen)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                    """, username, username.lowercased(), email, email.lowercased(), displayName, passwordHash, now)
                let id = db.lastInsertRowID
                try indexDisplayName(userID: id, displayName)
                return id
            }
        } catch StoreError.conflict(let message) {
            // The message names the column: "UNIQUE constraint failed: users.email_lower".
            if message.contains("users.username_lower") { throw StoreError.usernameTaken }
            if message.contains("users.email_lower") { throw StoreError.emailTaken }
            throw StoreError.conflict(message)
        }
        return UserRecord(id: id, username: username, email: email, displayName: displayName,
                          passwordHash: passwordHash, createdAt: now, lastSeen: 0)
    }

    public func user(id: UInt64) throws -> UserRecord? {
        try db.queryOne("SELECT \(Self.userColumns) FROM users u WHERE u.id = ?", id) { Self.userRecord($0) }
    }

    public func user(login: String) throws -> UserRecord? {
        // Usernames cannot contain '@', so a login matches at most one of the two columns in
        // practice; the ORDER BY keeps the answer deterministic regardless.
        try db.queryOne("""
            SELECT \(Self.userColumns) FROM users u
            WHERE u.username_lower = ?1 OR u.email_lower = ?1
            ORDER BY u.username_lower = ?1 DESC LIMIT 1
            """, login.lowercased()) { Self.userRecord($0) }
    }

    public func user(username: String) throws -> UserRecord? {
        try db.queryOne("SELECT \(Self.userColumns) FROM users u WHERE u.username_lower = ?",
                        username.lowercased()) { Self.userRecord($0) }
    }

    public func setDisplayName(userID: UInt64, _ name: String) throws {
        try db.transaction {
            guard try db.run("UPDATE users SET display_name = ? WHERE id = ?", name, userID) > 0 else { throw StoreError.notFound }
            try indexDisplayName(userID: userID, name)
        }
    }

    public func setTimeZone(userID: UInt64, _ zone: String) throws {
        guard try db.run("UPDATE users SET time_zone = ? WHERE id = ?", zone, userID) > 0 else { throw StoreError.notFound }
    }

    /// The words of a display name for user search (`users_fts`, schema v13). Written here, not
    /// by a trigger: a name changes rarely, and the store keeps no triggers (v3).
    func indexDisplayName(userID: UInt64, _ name: String) throws {
        try db.run("DELETE FROM users_fts WHERE rowid = ?", userID)
        try db.run("INSERT INTO users_fts (rowid, name) VALUES (?, search_words(?))", userID, name)
    }

    public func setPasswordHash(userID: UInt64, _ hash: String) throws {
        guard try db.run("UPDATE users SET password_hash = ? WHERE id = ?", hash, userID) > 0 else { throw StoreError.notFound }
    }

    public func setLastSeen(userID: UInt64, _ time: UInt64) throws {
        guard try db.run("UPDATE users SET last_seen = ? WHERE id = ?", time, userID) > 0 else { throw StoreError.notFound }
    }

    // MARK: Sessions

    static let sessionColumns = "id, user_id, token_hash, device, created_at, last_used_at"

    static func sessionRecord(_ s: Statement) -> SessionRecord {
        SessionRecord(id: s.uint64(0), userID: s.uint64(1), tokenHash: s.blob(2), device: s.string(3),
                      createdAt: s.uint64(4), lastUsedAt: s.uint64(5))
    }

    public func createSession(userID: UInt64, tokenHash: [UInt8], device: String, now: UInt64) throws -> SessionRecord {
        do {
            try db.run("""
                INSERT INTO sessions (user_id, token_hash, device, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)
                """, userID, tokenHash, device, now, now)
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
        return SessionRecord(id: db.lastInsertRowID, userID: userID, tokenHash: tokenHash, device: device,
                             createdAt: now, lastUsedAt: now)
    }

    public func session(tokenHash: [UInt8]) throws -> SessionRecord? {
        try db.queryOne("SELECT \(Self.sessionColumns) FROM sessions WHERE token_hash = ?", tokenHash) { Self.sessionRecord($0) }
    }

    public func sessions(userID: UInt64) throws -> [SessionRecord] {
        try db.query("SELECT \(Self.sessionColumns) FROM sessions WHERE user_id = ? ORDER BY id", userID) { Self.sessionRecord($0) }
    }

    public func touchSession(id: UInt64, now: UInt64) throws {
        try db.run("UPDATE sessions SET last_used_at = max(last_used_at, ?) WHERE id = ?", now, id)
    }

    public func deleteSession(id: UInt64, userID: UInt64) throws -> Bool {
        try db.run("DELETE FROM sessions WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    public func deleteSessions(userID: UInt64, except keep: UInt64) throws -> [UInt64] {
        try db.query("DELETE FROM sessions WHERE user_id = ? AND id != ? RETURNING id", userID, keep) { $0.uint64(0) }.sorted()
    }
}
