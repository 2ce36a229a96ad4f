import MessageAISQLite

/// The away mark (schema v8_presence_status).
extension SQLiteStore {
    public func setAway(userID: UInt64, message: String, now: UInt64) throws {
        try db.run("""
            INSERT INTO presence_status (user_id, message, since) VALUES (?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET message = excluded.message, since = excluded.since
            """, userID, message, now)
    }

    @discardableResult
    public func clearAway(userID: UInt64) throws -> Bool {
        try db.run("DELETE FROM presence_status WHERE user_id = ?", userID) > 0
    }

    public func awayMessage(userID: UInt64) throws -> String? {
        try db.queryOne("SELECT message FROM presence_status WHERE user_id = ?", userID) { $0.string(0) }
    }
}
