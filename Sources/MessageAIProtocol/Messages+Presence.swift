/// PRESENCE: pushed to a user's contacts when they come online or go, and when they mark
/// themselves away or back (AWAY). `away` and `away_message` (tags 12, 13) were added after
/// 0.2.0: an older client skips them and sees plain online/offline.
public struct Presence: WireMessage {
    public static let frameType = FrameType.presence
    public var user: UserInfo
    public var online: Bool
    public var lastSeen: UInt64
    public var away: Bool
    /// The text the user gave with /away; empty for none.
    public var awayMessage: String
    public init(user: UserInfo, online: Bool, lastSeen: UInt64, away: Bool = false, awayMessage: String = "") {
        self.user = user; self.online = online; self.lastSeen = lastSeen; self.away = away; self.awayMessage = awayMessage
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        user = try f.record(1, "user"); online = try f.bool(2, "online"); lastSeen = try f.optionalUInt(3, "last_seen")
        away = try f.bool(12, "away"); awayMessage = try f.optionalString(13, "away_message")
    }
    public func encode(to w: inout FieldWriter) {
        w.record(1, user); w.optionalBool(2, online); w.optionalUInt(3, lastSeen)
        w.optionalBool(12, away); w.optionalString(13, awayMessage)
    }
}

/// AWAY: mark the user away with an optional text (`away` set), or back (`away` clear).
/// Answered with OK. Stored: it lasts across reconnects and server restarts until AWAY with
/// `away` clear, from any of the user's sessions. Contacts and the user's other sessions get
/// a PRESENCE push.
public struct AwaySet: WireMessage {
    public static let frameType = FrameType.away
    public var away: Bool
    public var message: String
    public init(away: Bool, message: String = "") { self.away = away; self.message = message }
    public init(from f: FieldReader) throws(ProtocolError) {
        away = try f.bool(1, "away"); message = try f.optionalString(2, "message")
    }
    public func encode(to w: inout FieldWriter) { w.optionalBool(1, away); w.optionalString(2, message) }
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
