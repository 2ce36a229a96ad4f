/// PRESENCE: pushed to a user's contacts and conversation partners when they come online or go.
public struct Presence: WireMessage {
    public static let frameType = FrameType.presence
    public var user: UserInfo
    public var online: Bool
    public var lastSeen: UInt64
    public init(user: UserInfo, online: Bool, lastSeen: UInt64) { self.user = user; self.online = online; self.lastSeen = lastSeen }
    public init(from f: FieldReader) throws(ProtocolError) {
        user = try f.record(1, "user"); online = try f.bool(2, "online"); lastSeen = try f.optionalUInt(3, "last_seen")
    }
    public func encode(to w: inout FieldWriter) { w.record(1, user); w.optionalBool(2, online); w.optionalUInt(3, lastSeen) }
}

/// TYPING: the user is typing in a conversation. Sent with request id 0, renewed every few
/// seconds while typing; never stored.
public struct Typing: WireMessage {
    public static let frameType = FrameType.typing
    public var conversationID: UInt64
    public init(conversationID: UInt64) { self.conversationID = conversationID }
    public init(from f: FieldReader) throws(ProtocolError) { conversationID = try f.uint(1, "conversation_id") }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID) }
}

/// TYPING_EVENT: someone is typing; the indicator expires after `ttl` ms unless renewed.
public struct TypingEvent: WireMessage {
    public static let frameType = FrameType.typingEvent
    public var conversationID: UInt64
    public var user: UserInfo
    public var ttl: UInt64
    public init(conversationID: UInt64, user: UserInfo, ttl: UInt64) { self.conversationID = conversationID; self.user = user; self.ttl = ttl }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); user = try f.record(2, "user"); ttl = try f.uint(3, "ttl_ms")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); w.record(2, user); w.uint(3, ttl) }
}
