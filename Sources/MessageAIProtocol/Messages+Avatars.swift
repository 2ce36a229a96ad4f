/// Profile pictures and group avatars (capability `avatars`, frame 0x0607). The picture is
/// uploaded as any file (FILE_ANNOUNCE, FILE_CHUNK), then AVATAR_SET names the upload: the
/// server makes a small square JPEG of it and carries its file id in Profile (tag 14) and
/// Conversation (tag 12); clients fetch it with FILE_GET like any file.
extension Capabilities {
    /// The peer sends AVATAR_SET and reads `avatar_id` in Profile and Conversation.
    public static let avatars = Capabilities(rawValue: 1 << 4)
}

extension FrameType {
    public static let avatarSet = FrameType(rawValue: 0x0607)
}

/// AVATAR_SET: sets (or, without `file_id`, removes) the user's profile picture, or with a
/// `conversation_id` a group's avatar (any member may, as with the group's name). Answered
/// with the user's own PROFILE, or the group's CONVERSATION (also pushed to its members).
public struct AvatarSet: WireMessage {
    public static let frameType = FrameType.avatarSet
    /// The sender's complete upload of an image; empty: remove the picture.
    public var fileID: [UInt8]
    /// 0: the user's own profile picture.
    public var conversationID: UInt64
    public init(fileID: [UInt8], conversationID: UInt64 = 0) { self.fileID = fileID; self.conversationID = conversationID }
    public init(from f: FieldReader) throws(ProtocolError) {
        fileID = f.optionalBytes(1, "file_id")
        guard fileID.isEmpty || fileID.count == 16 else {
            throw .wrongFieldType(tag: 1, name: "file_id", expected: "16 bytes or absent")
        }
        conversationID = try f.optionalUInt(2, "conversation_id")
    }
    public func encode(to w: inout FieldWriter) {
        if !fileID.isEmpty { w.bytes(1, fileID) }
        w.optionalUInt(2, conversationID)
    }
}
