import MessageAIStore
import PostgresNIO

/// The file lookups the server's `FileStore` has beside creation and quota
/// (SQLiteStore+Files.swift, +Avatars.swift): resuming an upload, deduplicating content,
/// expiring partial uploads, and whether a blob is still served.
extension PostgresStore {
    /// The user's own upload of this content under this name (resuming, idempotent announce);
    /// a complete one before a partial one.
    public func file(ownerID: UInt64, uploadSHA256: [UInt8], name: String) async throws(StoreError) -> FileRecord? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.fileColumns) FROM files f
                WHERE f.owner_id = \(ownerID) AND f.upload_sha256 = \(ByteBuffer(bytes: uploadSHA256)) AND f.name = \(name)
                ORDER BY f.complete DESC LIMIT 1
                """, logger: logger).map(Self.file)
        }
    }

    /// Any complete file announced with this hash and size (dedupe).
    public func completeFile(uploadSHA256: [UInt8], uploadSize: UInt64) async throws(StoreError) -> FileRecord? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.fileColumns) FROM files f
                WHERE f.upload_sha256 = \(ByteBuffer(bytes: uploadSHA256)) AND f.complete AND f.upload_size = \(uploadSize) LIMIT 1
                """, logger: logger).map(Self.file)
        }
    }

    /// All unfinished uploads (expiry looks at their files' ages), oldest first.
    public func partialFiles() async throws(StoreError) -> [FileRecord] {
        try await perform { client, logger in
            try await client.allRows("SELECT \(unescaped: Self.fileColumns) FROM files f WHERE NOT f.complete ORDER BY f.created_at",
                                     logger: logger).map(Self.file)
        }
    }

    /// Whether a complete row serves this content (a blob without one may be deleted).
    public func isServed(sha256: [UInt8]) async throws(StoreError) -> Bool {
        try await exists("SELECT 1 FROM files WHERE sha256 = \(ByteBuffer(bytes: sha256)) AND complete LIMIT 1")
    }
}
