import MessageAIStore
import PostgresNIO

/// FileRecord metadata, with the SQLite store's behaviour (SQLiteStore+Files.swift), except the
/// quota: there the handler reads the usage and then creates the file, which holds only while
/// one thread writes; here the charge is a conditional UPDATE of the owner's `file_usage` row
/// in the transaction that creates the file, so the quota holds across nodes.
extension PostgresStore {
    public typealias FileCreation = MessageAIStore.FileCreation

    static let fileColumns = """
        f.id, f.owner_id, f.name, f.media_type, f.upload_size, f.upload_sha256, f.complete, f.size, f.sha256,
        f.width, f.height, f.thumbnail, f.created_at
        """

    static func file(_ row: PostgresRow) throws -> FileRecord {
        let (id, owner, name, media, uploadSize, uploadHash, complete, size, hash, width, height, thumbnail, created) =
            try row.decode((ByteBuffer, UInt64, String, String, UInt64, ByteBuffer, Bool, UInt64, ByteBuffer?, UInt64, UInt64,
                            ByteBuffer?, UInt64).self)
        var file = FileRecord(id: Array(id.readableBytesView), ownerID: owner, name: name, mediaType: media, uploadSize: uploadSize,
                        uploadSHA256: Array(uploadHash.readableBytesView), createdAt: created)
        file.complete = complete; file.size = size; file.sha256 = hash.map { Array($0.readableBytesView) } ?? []
        file.width = width; file.height = height; file.thumbnail = thumbnail.map { Array($0.readableBytesView) } ?? []
        return file
    }

    /// Creates the file if the owner's quota (`quota` bytes, `maximumPartials` unfinished
    /// uploads; a complete file, deduplicated, is no unfinished upload) allows it, charging the
    /// quota in the same transaction.
    public func createFile(_ file: FileRecord, quota: UInt64, maximumPartials: Int) async throws(StoreError) -> FileCreation {
        let (charge, partial) = (file.complete ? file.size : file.uploadSize, file.complete ? 0 : 1)
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await db.query("INSERT INTO file_usage (owner_id) VALUES (\(file.ownerID)) ON CONFLICT DO NOTHING", logger: logger)
                guard try await db.firstRow("""
                    UPDATE file_usage SET bytes = bytes + \(charge), partials = partials + \(partial)
                    WHERE owner_id = \(file.ownerID) AND bytes + \(charge) <= \(quota)
                      AND (\(partial) = 0 OR partials < \(maximumPartials))
                    RETURNING 1
                    """, logger: logger) != nil else {
                    let usage = try await db.firstRow("SELECT bytes FROM file_usage WHERE owner_id = \(file.ownerID)", logger: logger)
                    let used = try usage?.decode(UInt64.self) ?? 0
                    return used + charge > quota ? FileCreation.quotaExceeded(used: used) : .tooManyUploads
                }
                try await db.query("""
                    INSERT INTO files (id, owner_id, name, media_type, upload_size, upload_sha256, complete, size, sha256,
                                       width, height, thumbnail, created_at)
                    VALUES (\(ByteBuffer(bytes: file.id)), \(file.ownerID), \(file.name), \(file.mediaType), \(file.uploadSize),
                            \(ByteBuffer(bytes: file.uploadSHA256)), \(file.complete), \(file.size),
                            \(file.complete ? ByteBuffer(bytes: file.sha256) : nil), \(file.width), \(file.height),
                            \(file.thumbnail.isEmpty ? nil : ByteBuffer(bytes: file.thumbnail)), \(file.createdAt))
                    """, logger: logger)
                return .created
            }
        }
    }

    /// `FileStore.createFile`: as SQLite, the caller checked the quota (`fileUsage`) before;
    /// the charge is still taken in the same transaction, so usage stays exact. Across nodes
    /// the conditional `createFile(_:quota:maximumPartials:)` is the one that holds the quota.
    public func createFile(_ file: FileRecord) async throws(StoreError) {
        switch try await createFile(file, quota: UInt64(Int64.max), maximumPartials: Int(Int32.max)) {
        case .created: return
        case .quotaExceeded, .tooManyUploads: throw StoreError.failed("file usage out of range")
        }
    }

    public func file(id: [UInt8]) async throws(StoreError) -> FileRecord? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.fileColumns) FROM files f WHERE f.id = \(ByteBuffer(bytes: id))",
                                      logger: logger).map(Self.file)
        }
    }

    /// Marks an upload complete with what it turned into; its charge moves from the announced
    /// size to the stored size, and it is no longer an unfinished upload. `notFound` if there
    /// is no such unfinished upload.
    public func completeFile(id: [UInt8], _ content: StoredContent) async throws(StoreError) {
        let (size, sha256, mediaType) = (content.size, content.sha256, content.mediaType)
        let (width, height, thumbnail) = (content.width, content.height, content.thumbnail)
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                guard let row = try await db.firstRow("""
                    UPDATE files SET complete = true, size = \(size), sha256 = \(ByteBuffer(bytes: sha256)), media_type = \(mediaType),
                        width = \(width), height = \(height), thumbnail = \(thumbnail.isEmpty ? nil : ByteBuffer(bytes: thumbnail))
                    WHERE id = \(ByteBuffer(bytes: id)) AND NOT complete
                    RETURNING owner_id, upload_size
                    """, logger: logger) else { throw PostgresStoreError.notFound }
                let (owner, announced) = try row.decode((UInt64, UInt64).self)
                try await db.query("""
                    UPDATE file_usage SET bytes = bytes - \(announced) + \(size), partials = partials - 1 WHERE owner_id = \(owner)
                    """, logger: logger)
            }
        }
    }

    /// Deletes the file row and gives its charge back (nothing when there was none).
    public func deleteFile(id: [UInt8]) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.withTransaction(logger: logger) { db in
                try await Self.deleteFile(db, id: id, onlyIfUnreferenced: false, logger: logger)
            }
        }
    }

    /// Deletes the row unless a message or an avatar still refers to it; true if deleted.
    @discardableResult
    public func releaseFile(id: [UInt8]) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await Self.deleteFile(db, id: id, onlyIfUnreferenced: true, logger: logger)
            }
        }
    }

    static func deleteFile(_ db: PostgresConnection, id: [UInt8], onlyIfUnreferenced: Bool, logger: Logger) async throws -> Bool {
        let key = ByteBuffer(bytes: id)
        guard let row = try await db.firstRow("""
            DELETE FROM files f WHERE f.id = \(key)
              AND (NOT \(onlyIfUnreferenced) OR NOT (
                   EXISTS (SELECT 1 FROM messages m WHERE m.file_id = f.id)
                   OR EXISTS (SELECT 1 FROM users u WHERE u.avatar_file_id = f.id)
                   OR EXISTS (SELECT 1 FROM conversations c WHERE c.avatar_file_id = f.id)))
            RETURNING owner_id, CASE WHEN complete THEN size ELSE upload_size END, complete
            """, logger: logger) else { return false }
        let (owner, charge, complete) = try row.decode((UInt64, UInt64, Bool).self)
        try await db.query("""
            UPDATE file_usage SET bytes = bytes - \(charge), partials = partials - \(complete ? 0 : 1) WHERE owner_id = \(owner)
            """, logger: logger)
        return true
    }

    /// Bytes the user's files take (complete: as served; partial: as announced) and the number
    /// of unfinished uploads.
    public func fileUsage(ownerID: UInt64) async throws(StoreError) -> (bytes: UInt64, partials: Int) {
        try await perform { client, logger in
            guard let row = try await client.firstRow("SELECT bytes, partials FROM file_usage WHERE owner_id = \(ownerID)",
                                                      logger: logger) else { return (0, 0) }
            let (bytes, partials) = try row.decode((UInt64, Int32).self)
            return (bytes, Int(partials))
        }
    }

    /// The uploader, a current member of a conversation holding a message that refers to it,
    /// or a member of the group whose avatar it is.
    public func canRead(fileID: [UInt8], userID: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT 1 FROM files f WHERE f.id = \(ByteBuffer(bytes: fileID)) AND f.complete AND (f.owner_id = \(userID)
                   OR EXISTS (SELECT 1 FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                              AND mb.user_id = \(userID) WHERE m.file_id = f.id)
                   OR EXISTS (SELECT 1 FROM conversations c JOIN members mb ON mb.conversation_id = c.id
                              AND mb.user_id = \(userID) WHERE c.avatar_file_id = f.id))
                """, logger: logger) != nil
        }
    }
}
