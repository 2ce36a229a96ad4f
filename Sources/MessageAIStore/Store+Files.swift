
/// One upload (see SchemaV7). `size`, `sha256` and the image fields are set when complete.
public struct FileRecord: Equatable, Sendable {
    public var id: [UInt8]
    public var ownerID: UInt64
    public var name: String
    public var mediaType: String
    public var uploadSize: UInt64
    public var uploadSHA256: [UInt8]
    public var complete = false
    public var size: UInt64 = 0
    public var sha256: [UInt8] = []
    public var width: UInt64 = 0
    public var height: UInt64 = 0
    public var thumbnail: [UInt8] = []
    public var createdAt: UInt64

    public init(id: [UInt8], ownerID: UInt64, name: String, mediaType: String, uploadSize: UInt64,
                uploadSHA256: [UInt8], createdAt: UInt64) {
        self.id = id; self.ownerID = ownerID; self.name = name; self.mediaType = mediaType
        self.uploadSize = uploadSize; self.uploadSHA256 = uploadSHA256; self.createdAt = createdAt
    }

    /// The record a message carries (no caption, no thumbnail: the sender adds the one, the
    /// live push the other).
    public var attachment: AttachmentRecord {
        AttachmentRecord(fileID: id, name: name, size: size, mediaType: mediaType, sha256: sha256, width: width, height: height)
    }
}

/// What a file's upload turned into once checked (images: cleaned, measured, thumbnailed).
public struct StoredContent: Equatable, Sendable {
    public var size: UInt64
    public var sha256: [UInt8]
    public var mediaType: String
    public var width: UInt64 = 0
    public var height: UInt64 = 0
    public var thumbnail: [UInt8] = []
    public init(size: UInt64, sha256: [UInt8], mediaType: String, width: UInt64 = 0, height: UInt64 = 0, thumbnail: [UInt8] = []) {
        self.size = size; self.sha256 = sha256; self.mediaType = mediaType
        self.width = width; self.height = height; self.thumbnail = thumbnail
    }
}

/// What creating a file row under the owner's quota came to (`FileStore.createFile(_:quota:maximumPartials:)`).
public enum FileCreation: Sendable, Equatable {
    case created
    /// The file would pass the quota; `used` is what the owner's files take now.
    case quotaExceeded(used: UInt64)
    /// The owner has `maximumPartials` unfinished uploads already.
    case tooManyUploads
}

/// Files: a capability of its own (`Store.files`, nil for a store without file sharing).
/// Sendable so that a closure may carry it back to the hub queue, which alone calls it.
public protocol FileStore: AnyObject, Sendable {
    nonisolated(nonsending) func createFile(_ file: FileRecord) async throws
    /// Creates the row if the owner's quota (`quota` bytes; `maximumPartials` unfinished
    /// uploads, a complete file being none) allows it. PostgreSQL charges the quota by one
    /// conditional update in the transaction that inserts the row, so two nodes cannot both
    /// pass it; the default reads the usage, then creates, which holds while one thread writes.
    nonisolated(nonsending) func createFile(_ file: FileRecord, quota: UInt64, maximumPartials: Int) async throws -> FileCreation
    nonisolated(nonsending) func file(id: [UInt8]) async throws -> FileRecord?
    /// The user's own upload of this content under this name (resuming, idempotent announce).
    nonisolated(nonsending) func file(ownerID: UInt64, uploadSHA256: [UInt8], name: String) async throws -> FileRecord?
    /// Any complete file announced with this hash and size (dedupe).
    nonisolated(nonsending) func completeFile(uploadSHA256: [UInt8], uploadSize: UInt64) async throws -> FileRecord?
    nonisolated(nonsending) func completeFile(id: [UInt8], _ content: StoredContent) async throws
    nonisolated(nonsending) func deleteFile(id: [UInt8]) async throws
    /// Bytes the user's files take (complete: as served; partial: as announced) and the number
    /// of unfinished uploads.
    nonisolated(nonsending) func fileUsage(ownerID: UInt64) async throws -> (bytes: UInt64, partials: Int)
    /// All partial uploads (expiry looks at their files' ages).
    nonisolated(nonsending) func partialFiles() async throws -> [FileRecord]
    /// The uploader, a current member of a conversation holding a message that refers to it,
    /// or a member of the group whose avatar it is.
    nonisolated(nonsending) func canRead(fileID: [UInt8], userID: UInt64) async throws -> Bool

    // Avatars (schema v9) and reclaiming space.
    nonisolated(nonsending) func avatarID(userID: UInt64) async throws -> [UInt8]
    /// Sets or (empty) removes; returns the previous avatar's file id, empty for none.
    nonisolated(nonsending) func setAvatar(userID: UInt64, fileID: [UInt8]) async throws -> [UInt8]
    nonisolated(nonsending) func setGroupAvatar(conversationID: UInt64, fileID: [UInt8]) async throws -> [UInt8]
    /// The user whose profile picture this file is, if it is one.
    nonisolated(nonsending) func avatarOwner(fileID: [UInt8]) async throws -> UInt64?
    /// Deletes the row unless a message or an avatar still refers to it; true if deleted.
    @discardableResult
    nonisolated(nonsending) func releaseFile(id: [UInt8]) async throws -> Bool
    /// Whether a complete row serves this content (a blob without one may be deleted).
    nonisolated(nonsending) func isServed(sha256: [UInt8]) async throws -> Bool
}

extension FileStore {
    /// One writer (SQLite): the usage read and the insert cannot interleave with another's.
    public nonisolated(nonsending) func createFile(_ file: FileRecord, quota: UInt64, maximumPartials: Int) async throws -> FileCreation {
        let usage = try await fileUsage(ownerID: file.ownerID)
        let charge = file.complete ? file.size : file.uploadSize
        guard usage.bytes + charge <= quota else { return .quotaExceeded(used: usage.bytes) }
        guard file.complete || usage.partials < maximumPartials else { return .tooManyUploads }
        try await createFile(file)
        return .created
    }
}
