import MessageAISQLite

// Avatars (schema v9) and the rows that give a blob its life.
extension SQLiteStore {
    public func avatarID(userID: UInt64) throws -> [UInt8] {
        try db.queryOne("SELECT avatar_file_id FROM users WHERE id = ?", userID) { $0.isNull(0) ? [] : $0.blob(0) } ?? []
    }

    public func setAvatar(userID: UInt64, fileID: [UInt8]) throws -> [UInt8] {
        try db.transaction {
            let old = try avatarID(userID: userID)
            guard try db.run("UPDATE users SET avatar_file_id = ? WHERE id = ?", fileID.isEmpty ? nil : fileID, userID) > 0 else {
                throw StoreError.notFound
            }
            return old
        }
    }

    public func setGroupAvatar(conversationID: UInt64, fileID: [UInt8]) throws -> [UInt8] {
        try db.transaction {
            let old = try db.queryOne("SELECT avatar_file_id FROM conversations WHERE id = ?", conversationID) {
                $0.isNull(0) ? [] : $0.blob(0)
            }
            guard let old else { throw StoreError.notFound }
            try db.run("UPDATE conversations SET avatar_file_id = ? WHERE id = ?", fileID.isEmpty ? nil : fileID, conversationID)
            return old
        }
    }

    public func avatarOwner(fileID: [UInt8]) throws -> UInt64? {
        try db.queryOne("SELECT id FROM users WHERE avatar_file_id = ?", fileID) { $0.uint64(0) }
    }

    @discardableResult
    public func releaseFile(id: [UInt8]) throws -> Bool {
        try db.run("""
            DELETE FROM files WHERE id = ?1
              AND NOT EXISTS (SELECT 1 FROM messages WHERE file_id = ?1)
              AND NOT EXISTS (SELECT 1 FROM users WHERE avatar_file_id = ?1)
              AND NOT EXISTS (SELECT 1 FROM conversations WHERE avatar_file_id = ?1)
            """, id) > 0
    }

    public func isServed(sha256: [UInt8]) throws -> Bool {
        try db.queryOne("SELECT 1 FROM files WHERE sha256 = ? AND complete = 1 LIMIT 1", sha256) { _ in true } ?? false
    }
}
