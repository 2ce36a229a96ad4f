import MessageAISQLite
#if canImport(Glibc)
import Glibc
#endif

/// The admin capability on SQLite (see `AdminStore`).
extension SQLiteStore: AdminStore {
    public var admin: AdminStore? { self }
    /// SQLite copies itself in one file (`snapshot(into:)`, below).
    public var backup: BackupStore? { self }

    public func accounts() throws -> [AccountRecord] {
        try db.query("SELECT \(Self.userColumns), u.disabled_at FROM users u ORDER BY u.username_lower") {
            AccountRecord(user: Self.userRecord($0), disabledAt: $0.uint64(Self.userColumnCount))
        }
    }

    public func account(username: String) throws -> AccountRecord? {
        try db.queryOne("SELECT \(Self.userColumns), u.disabled_at FROM users u WHERE u.username_lower = ?", username.lowercased()) {
            AccountRecord(user: Self.userRecord($0), disabledAt: $0.uint64(Self.userColumnCount))
        }
    }

    public func setDisabled(userID: UInt64, at: UInt64) throws -> Bool {
        try db.run("UPDATE users SET disabled_at = ? WHERE id = ?", at, userID) > 0
    }

    public func deleteAccount(userID: UInt64, now: UInt64) throws -> String? {
        let name = "deleted-\(userID)"
        return try db.transaction { () throws -> String? in
            guard try db.run("""
                UPDATE users SET username = ?1, username_lower = ?1, email = ?1 || '@invalid', email_lower = ?1 || '@invalid',
                       display_name = 'deleted user', password_hash = '!', disabled_at = ?2
                WHERE id = ?3
                """, name, now, userID) > 0 else { return nil }
            _ = try db.run("DELETE FROM sessions WHERE user_id = ?", userID)
            _ = try db.run("DELETE FROM contacts WHERE owner_id = ?1 OR contact_id = ?1", userID)
            _ = try db.run("DELETE FROM blocks WHERE blocker_id = ?1 OR blocked_id = ?1", userID)
            _ = try db.run("DELETE FROM presence_status WHERE user_id = ?", userID)
            return name
        }
    }

    public func isDisabled(userID: UInt64) throws -> Bool {
        try db.queryOne("SELECT disabled_at FROM users WHERE id = ?", userID) { $0.uint64(0) }.map { $0 != 0 } ?? false
    }

    public func session(id: UInt64) throws -> SessionRecord? {
        try db.queryOne("SELECT \(Self.sessionColumns) FROM sessions WHERE id = ?", id) { Self.sessionRecord($0) }
    }

    public func deleteAllSessions(userID: UInt64) throws -> [UInt64] {
        try db.query("DELETE FROM sessions WHERE user_id = ? RETURNING id", userID) { $0.uint64(0) }.sorted()
    }

    public func statistics() throws -> StoreStatistics {
        var s = StoreStatistics()
        func count(_ sql: String) throws -> Int { try db.queryOne(sql) { Int($0.int64(0)) } ?? 0 }
        s.users = try count("SELECT count(*) FROM users")
        s.disabledUsers = try count("SELECT count(*) FROM users WHERE disabled_at != 0")
        s.conversations = try count("SELECT count(*) FROM conversations")
        s.messages = try count("SELECT count(*) FROM messages WHERE deleted = 0")
        s.sessions = try count("SELECT count(*) FROM sessions")
        s.files = try count("SELECT count(*) FROM files WHERE complete = 1")
        s.fileBytes = UInt64(try db.queryOne("SELECT coalesce(sum(size), 0) FROM files WHERE complete = 1") { $0.int64(0) } ?? 0)
        let pages = try db.queryOne("PRAGMA page_count") { $0.int64(0) } ?? 0
        let size = try db.queryOne("PRAGMA page_size") { $0.int64(0) } ?? 0
        s.databaseBytes = UInt64(pages * size)
        return s
    }
}

/// The backup capability on SQLite (see `BackupStore`).
extension SQLiteStore: BackupStore {
    /// `VACUUM INTO` on a second connection: a read transaction, so it sees every commit made
    /// before it began and none after, and the hub's writer goes on meanwhile (WAL). The copy
    /// is compact and has no WAL of its own.
    public func snapshot(into path: String) throws {
        guard let file = sqlite3_db_filename(db.handle, "main").map({ String(cString: $0) }), !file.isEmpty else {
            throw StoreError.sqlite(code: 1, message: "an in-memory database has no file to copy")
        }
        let reader = try Database(path: file, translate: StoreError.init(sqlite:))
        defer { reader.close() }
        sqlite3_busy_timeout(reader.handle, 5_000)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.sqlite(code: 1, message: "cannot create \(path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)  // made empty and 0600 first: VACUUM INTO accepts an empty file and keeps its mode
        _ = try reader.run("VACUUM INTO ?", path)
    }
}
