/// Files (capability `files`, frames 0x0601-0x06FF): resumable uploads in the manner of tus,
/// downloads by offset, and the attachment record that rides on SEND and MESSAGE.
///
/// An upload: FILE_ANNOUNCE (name, size, media type, SHA-256) → FILE_UPLOAD (file id, chunk
/// size, offset the server holds); FILE_CHUNKs at that offset, each answered by FILE_UPLOAD
/// with the new offset; the answer to the last one says `complete` once size and hash were
/// checked. Announcing the same file again (after a reconnect or a restart of either side)
/// gives the same id and the offset reached; a file the server already holds is complete at once.
extension Capabilities {
    /// The peer speaks the FILE_* frames and reads attachments on SEND and MESSAGE.
    public static let files = Capabilities(rawValue: 1 << 3)
}

extension FrameType {
    public static let fileAnnounce = FrameType(rawValue: 0x0601)
    public static let fileUpload = FrameType(rawValue: 0x0602)
    public static let fileChunk = FrameType(rawValue: 0x0603)
    public static let fileStatus = FrameType(rawValue: 0x0604)
    public static let fileGet = FrameType(rawValue: 0x0605)
    public static let fileData = FrameType(rawValue: 0x0606)
}

/// FILE_ANNOUNCE: the client will upload this file (answered with FILE_UPLOAD).
public struct FileAnnounce: WireMessage {
    public static let frameType = FrameType.fileAnnounce
    /// The name as the sender's file system had it (no directories); receivers sanitise it.
    public var name: String
    public var size: UInt64
    /// Such as "image/png"; empty: application/octet-stream.
    public var mediaType: String
    /// SHA-256 of the whole file (32 bytes).
    public var sha256: [UInt8]
    public init(name: String, size: UInt64, mediaType: String, sha256: [UInt8]) {
        self.name = name; self.size = size; self.mediaType = mediaType; self.sha256 = sha256
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        name = try f.string(1, "name"); size = try f.uint(2, "size")
        mediaType = try f.optionalString(3, "media_type"); sha256 = try f.bytes(4, "sha256", count: 32)
    }
    public func encode(to w: inout FieldWriter) {
        w.string(1, name); w.uint(2, size); w.optionalString(3, mediaType); w.bytes(4, sha256)
    }
}

/// FILE_UPLOAD: where an upload stands. `offset` is the next byte the server wants; when
/// `complete` the file is stored and verified (offset = size) and may go on a SEND.
public struct FileUpload: WireMessage {
    public static let frameType = FrameType.fileUpload
    /// 16 random bytes: unguessable, so knowing an id grants nothing without membership.
    public var fileID: [UInt8]
    /// Chunks carry at most this many bytes.
    public var chunkSize: UInt64
    public var offset: UInt64
    public var complete: Bool
    public init(fileID: [UInt8], chunkSize: UInt64, offset: UInt64, complete: Bool) {
        self.fileID = fileID; self.chunkSize = chunkSize; self.offset = offset; self.complete = complete
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = try f.bytes(1, "file_id", count: 16); chunkSize = try f.uint(2, "chunk_size")
        offset = try f.optionalUInt(3, "offset"); complete = try f.bool(4, "complete")
    }
    public func encode(to w: inout FieldWriter) {
        w.bytes(1, fileID); w.uint(2, chunkSize); w.optionalUInt(3, offset); w.optionalBool(4, complete)
    }
}

/// FILE_CHUNK: bytes of an upload at `offset` (answered with FILE_UPLOAD). A chunk at another
/// offset than the server's is not written; the answer tells the offset to continue from.
public struct FileChunk: WireMessage {
    public static let frameType = FrameType.fileChunk
    /// Sent as is even when zlib was agreed: see `WireMessage.compressible`.
    public static let compressible = false
    public var fileID: [UInt8]
    public var offset: UInt64
    public var data: [UInt8]
    public init(fileID: [UInt8], offset: UInt64, data: [UInt8]) { self.fileID = fileID; self.offset = offset; self.data = data }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = try f.bytes(1, "file_id", count: 16); offset = try f.optionalUInt(2, "offset"); data = try f.bytes(3, "data")
    }
    public func encode(to w: inout FieldWriter) { w.bytes(1, fileID); w.optionalUInt(2, offset); w.bytes(3, data) }
}

/// FILE_STATUS: the offset query after a reconnect (answered with FILE_UPLOAD).
public struct FileStatus: WireMessage {
    public static let frameType = FrameType.fileStatus
    public var fileID: [UInt8]
    public init(fileID: [UInt8]) { self.fileID = fileID }
    public init(from f: FieldReader) throws(ProtocolError) { fileID = try f.bytes(1, "file_id", count: 16) }
    public func encode(to w: inout FieldWriter) { w.bytes(1, fileID) }
}

/// FILE_GET: a piece of a stored file, or of its thumbnail (answered with FILE_DATA).
public struct FileGet: WireMessage {
    public static let frameType = FrameType.fileGet
    public var fileID: [UInt8]
    public var offset: UInt64
    /// 0 or more than the chunk size: the chunk size.
    public var length: UInt64
    public var thumbnail: Bool
    public init(fileID: [UInt8], offset: UInt64 = 0, length: UInt64 = 0, thumbnail: Bool = false) {
        self.fileID = fileID; self.offset = offset; self.length = length; self.thumbnail = thumbnail
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = try f.bytes(1, "file_id", count: 16); offset = try f.optionalUInt(2, "offset")
        length = try f.optionalUInt(3, "length"); thumbnail = try f.bool(4, "thumbnail")
    }
    public func encode(to w: inout FieldWriter) {
        w.bytes(1, fileID); w.optionalUInt(2, offset); w.optionalUInt(3, length); w.optionalBool(4, thumbnail)
    }
}

/// FILE_DATA: bytes of a stored file from `offset`; `size` and `sha256` describe the whole
/// file as served, so a client verifies what it assembled.
public struct FileData: WireMessage {
    public static let frameType = FrameType.fileData
    public static let compressible = false
    public var fileID: [UInt8]
    public var offset: UInt64
    public var data: [UInt8]
    public var size: UInt64
    public var sha256: [UInt8]
    public init(fileID: [UInt8], offset: UInt64, data: [UInt8], size: UInt64, sha256: [UInt8]) {
        self.fileID = fileID; self.offset = offset; self.data = data; self.size = size; self.sha256 = sha256
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = try f.bytes(1, "file_id", count: 16); offset = try f.optionalUInt(2, "offset")
        data = f.optionalBytes(3, "data"); size = try f.optionalUInt(4, "size")
        sha256 = try f.bytes(5, "sha256", count: 32)
    }
    public func encode(to w: inout FieldWriter) {
        w.bytes(1, fileID); w.optionalUInt(2, offset); w.bytes(3, data); w.optionalUInt(4, size); w.bytes(5, sha256)
    }
}

/// An attachment: on SEND only `file_id` counts (the server fills the rest from what it
/// stored); on MESSAGE everything the recipient needs before downloading, thumbnail included.
public struct Attachment: FieldCodable, Hashable {
    public var fileID: [UInt8]
    public var name: String
    public var size: UInt64
    public var mediaType: String
    /// SHA-256 of the file as served (for images: after the metadata was removed).
    public var sha256: [UInt8]
    /// Images only: pixels, after the orientation was applied.
    public var width: UInt64
    public var height: UInt64
    /// Images only: a JPEG about 320 px on its longer side.
    public var thumbnail: [UInt8]
    public var caption: String
    public init(fileID: [UInt8], name: String = "", size: UInt64 = 0, mediaType: String = "", sha256: [UInt8] = [],
                width: UInt64 = 0, height: UInt64 = 0, thumbnail: [UInt8] = [], caption: String = "") {
        self.fileID = fileID; self.name = name; self.size = size; self.mediaType = mediaType; self.sha256 = sha256
        self.width = width; self.height = height; self.thumbnail = thumbnail; self.caption = caption
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = try f.bytes(1, "file_id", count: 16); name = try f.optionalString(2, "name")
        size = try f.optionalUInt(3, "size"); mediaType = try f.optionalString(4, "media_type")
        sha256 = f.optionalBytes(5, "sha256"); width = try f.optionalUInt(6, "width"); height = try f.optionalUInt(7, "height")
        thumbnail = f.optionalBytes(8, "thumbnail"); caption = try f.optionalString(9, "caption")
    }
    public func encode(to w: inout FieldWriter) {
        w.bytes(1, fileID); w.optionalString(2, name); w.optionalUInt(3, size); w.optionalString(4, mediaType)
        if !sha256.isEmpty { w.bytes(5, sha256) }
        w.optionalUInt(6, width); w.optionalUInt(7, height)
        if !thumbnail.isEmpty { w.bytes(8, thumbnail) }
        w.optionalString(9, caption)
    }

    /// The record's field-list bytes (how the server keeps it with the message).
    public var bytes: [UInt8] {
        var w = FieldWriter()
        encode(to: &w)
        return w.bytes
    }

    /// What a client without the `files` capability shows, and what search finds:
    /// "[file: report.pdf (1.2 MiB)] the caption".
    /// The name is escaped (`escapedName`), so a name cannot forge the text form.
    public var fallbackText: String {
        let head = "[file: \(Attachment.escapedName(name)) (\(Attachment.humanSize(size)))]"
        return caption.isEmpty ? head : head + " " + caption
    }

    /// A file name as the text form writes it: `\`, `(`, `)`, `[` and `]` get a backslash, and
    /// control characters and bidirectional controls are written `\u{XXXX}`. Then the name ends
    /// at the first ` (` without a backslash before it, and a name like `x (1 B)] forged` cannot
    /// end the bracket early, start a new line or turn the text around for an older client.
    public static func escapedName(_ name: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(name.unicodeScalars.count)
        for u in name.unicodeScalars {
            switch u {
            case "\\", "(", ")", "[", "]":
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value)
                || (0x2066...0x2069).contains(u.value) || u.value == 0x200E || u.value == 0x200F || u.value == 0x061C:
                out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// "812 B", "12.5 KiB", "1.2 MiB", "3.0 GiB".
    public static func humanSize(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1024 || unit == "GiB" {
                let tenths = (value * 10).rounded() / 10
                return "\(tenths) \(unit)"
            }
            value /= 1024
        }
        return "\(bytes) B"
    }
}
