import MessageAISQLite
import MessageAIProtocol

extension SQLiteStore: FileStore {
    public var files: FileStore? { self }

    static let fileColumns = """
        f.id, f.owner_id, f.name, f.media_type, f.upload_size, f.upload_sha256, f.complete, f.size, f.sha256,
        f.width, f.height, f.thumbnail, f.created_at
        """

    static func fileRecord(_ s: Statement) -> FileRecord {
        var r = FileRecord(id: s.blob(0), ownerID: s.uint64(1), name: s.string(2), mediaType: s.string(3),
                           uploadSize: s.uint64(4), uploadSHA256: s.blob(5), createdAt: s.uint64(12))
        r.complete = s.bool(6); r.size = s.uint64(7); r.sha256 = s.blob(8)
        r.width = s.uint64(9); r.height = s.uint64(10); r.thumbnail = s.blob(11)
        return r
    }

    public func createFile(_ f: FileRecord) throws {
        try db.run("""
            INSERT INTO files (id, owner_id, name, media_type, upload_size, upload_sha256, complete, size, sha256,
                               width, height, thumbnail, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, f.id, f.ownerID, f.name, f.mediaType, f.uploadSize, f.uploadSHA256, f.complete, f.size,
                   f.complete ? f.sha256 : nil, f.width, f.height, f.thumbnail.isEmpty ? nil : f.thumbnail, f.createdAt)
    }

    public func file(id: [UInt8]) throws -> FileRecord? {
        try db.queryOne("SELECT \(Self.fileColumns) FROM files f WHERE f.id = ?", id) { Self.fileRecord($0) }
    }

    public func file(ownerID: UInt64, uploadSHA256: [UInt8], name: String) throws -> FileRecord? {
        try db.queryOne("""
            SELECT \(Self.fileColumns) FROM files f WHERE f.owner_id = ? AND f.upload_sha256 = ? AND f.name = ?
            ORDER BY f.complete DESC LIMIT 1
            """, ownerID, uploadSHA256, name) { Self.fileRecord($0) }
    }

    public func completeFile(uploadSHA256: [UInt8], uploadSize: UInt64) throws -> FileRecord? {
        try db.queryOne("""
            SELECT \(Self.fileColumns) FROM files f WHERE f.upload_sha256 = ? AND f.complete = 1 AND f.upload_size = ? LIMIT 1
            """, uploadSHA256, uploadSize) { Self.fileRecord($0) }
    }

    public func completeFile(id: [UInt8], _ c: StoredContent) throws {
        guard try db.run("""
            UPDATE files SET complete = 1, size = ?, sha256 = ?, media_type = ?, width = ?, height = ?, thumbnail = ?
            WHERE id = ?
            """, c.size, c.sha256, c.mediaType, c.width, c.height, c.thumbnail.isEmpty ? nil : c.thumbnail, id) > 0 else {
            throw StoreError.notFound
        }
    }

    public func deleteFile(id: [UInt8]) throws {
        _ = try db.run("DELETE FROM files WHERE id = ?", id)
    }

    public func fileUsage(ownerID: UInt64) throws -> (bytes: UInt64, partials: Int) {
        try db.queryOne("""
            SELECT coalesce(sum(CASE WHEN complete = 1 THEN size ELSE upload_size END), 0), coalesce(sum(complete = 0), 0)
            FROM files WHERE owner_id = ?
            """, ownerID) { ($0.uint64(0), $0.int(1)) } ?? (0, 0)
    }

    public func partialFiles() throws -> [FileRecord] {
        try db.query("SELECT \(Self.fileColumns) FROM files f WHERE f.complete = 0") { Self.fileRecord($0) }
    }

    public func canRead(fileID: [UInt8], userID: UInt64) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM files f WHERE f.id = ?1 AND f.complete = 1 AND (f.owner_id = ?2 OR EXISTS (
                SELECT 1 FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id AND mb.user_id = ?2
                WHERE m.file_id = f.id) OR EXISTS (
                SELECT 1 FROM conversations c JOIN members mb ON mb.conversation_id = c.id AND mb.user_id = ?2
                WHERE c.avatar_file_id = f.id))
            """, fileID, userID) { _ in true } ?? false
    }
}
