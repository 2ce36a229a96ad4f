/// Nested records shared by several frames.

/// A user as search results and member lists show it.
public struct UserInfo: FieldCodable, Equatable, Hashable {
    public var userID: UInt64
    public var username: String
    public var displayName: String

    public init(userID: UInt64, username: String, displayName: String) {
        self.userID = userID; self.username = username; self.displayName = displayName
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        userID = try f.uint(1, "user_id"); username = try f.string(2, "username")
        displayName = try f.optionalString(3, "display_name")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, userID); w.string(2, username); w.optionalString(3, displayName)
    }
}

/// One message as stored: pushed alone in MESSAGE, listed in history, sync and search.
public struct ChatMessage: WireMessage, Hashable {
    public static let frameType = FrameType.message
    public var conversationID: UInt64
    /// Position in the conversation, from 1, gapless: the order everyone sees.
    public var seq: UInt64
    /// The sender's 16-byte id for the message; resends with the same id are stored once.
    public var clientID: [UInt8]
    public var senderID: UInt64
    public var senderUsername: String
    /// Milliseconds since the Unix epoch, set by the server when it stored the message.
    public var serverTime: UInt64
    public var text: String
    /// 1 = text. Later versions add kinds (files); a client shows an unknown kind as such.
    public var kind: UInt64
    /// The message's current state (messageChanges; absent fields mean 0, false, none):
    /// the seq it answers, when it was last edited (ms), whether it was deleted (then `text`
    /// is empty), and its reactions.
    public var replyTo: UInt64 = 0
    public var editedAt: UInt64 = 0
    public var deleted = false
    public var reactions: [Reaction] = []
    /// Capability `files`: the message's attachment; `text` then reads "[file: NAME (SIZE)] caption"
    /// so a client without the capability shows something sensible and search finds the name.
    public var attachment: Attachment?

    public init(conversationID: UInt64, seq: UInt64, clientID: [UInt8], senderID: UInt64,
                senderUsername: String, serverTime: UInt64, text: String, kind: UInt64 = 1,
                replyTo: UInt64 = 0, editedAt: UInt64 = 0, deleted: Bool = false, reactions: [Reaction] = [],
                attachment: Attachment? = nil) {
        self.conversationID = conversationID; self.seq = seq; self.clientID = clientID
        self.senderID = senderID; self.senderUsername = senderUsername
        self.serverTime = serverTime; self.text = text; self.kind = kind
        self.replyTo = replyTo; self.editedAt = editedAt; self.deleted = deleted; self.reactions = reactions
        self.attachment = attachment
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); seq = try f.uint(2, "seq")
        clientID = try f.bytes(3, "client_id", count: 16); senderID = try f.uint(4, "sender_id")
        senderUsername = try f.string(5, "sender_username"); serverTime = try f.uint(6, "server_time")
        text = try f.optionalString(7, "text")
        let k = try f.optionalUInt(8, "kind"); kind = k == 0 ? 1 : k
        replyTo = try f.optionalUInt(9, "reply_to_seq"); editedAt = try f.optionalUInt(10, "edited_at")
        deleted = try f.bool(11, "deleted"); reactions = try f.records(12, "reactions")
        attachment = try f.optionalRecord(24, "attachment")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.uint(2, seq); w.bytes(3, clientID); w.uint(4, senderID)
        w.string(5, senderUsername); w.uint(6, serverTime); w.optionalString(7, text)
        if kind != 1 { w.uint(8, kind) }
        w.optionalUInt(9, replyTo); w.optionalUInt(10, editedAt); w.optionalBool(11, deleted); w.records(12, reactions)
        if let attachment { w.record(24, attachment) }
    }
}

/// A conversation as one user sees it. Also pushed alone in CONVERSATION when the user is
/// added to one, or it is renamed or its members change.
public struct Conversation: WireMessage {
    public static let frameType = FrameType.conversation
    public var conversationID: UInt64
    public var kind: ConversationKind
    /// The group's name; empty for direct conversations (clients show the other member).
    public var name: String
    public var members: [UserInfo]
    /// The highest seq stored in it, 0 when empty.
    public var lastSeq: UInt64
    /// Milliseconds since the epoch of the last message, or of creation.
    public var lastActivity: UInt64
    /// Messages from others above this user's read marker.
    public var unread: UInt64
    public var lastMessage: ChatMessage?
    /// This user's own markers, so a second device starts where the first left off.
    public var deliveredSeq: UInt64
    public var readSeq: UInt64
    /// A message request (version 2): a direct conversation a non-contact started, which this
    /// user has not accepted (by replying, or by becoming contacts). Until then the other side
    /// gets no read marker and no typing from this user.
    public var request: Bool
    /// Capability `avatars`: the group's avatar (a file id for FILE_GET), empty for none.
    public var avatarID: [UInt8] = []

    public init(conversationID: UInt64, kind: ConversationKind, name: String, members: [UserInfo],
                lastSeq: UInt64 = 0, lastActivity: UInt64 = 0, unread: UInt64 = 0,
                lastMessage: ChatMessage? = nil, deliveredSeq: UInt64 = 0, readSeq: UInt64 = 0, request: Bool = false,
                avatarID: [UInt8] = []) {
        self.conversationID = conversationID; self.kind = kind; self.name = name; self.members = members
        self.lastSeq = lastSeq; self.lastActivity = lastActivity; self.unread = unread
        self.lastMessage = lastMessage; self.deliveredSeq = deliveredSeq; self.readSeq = readSeq
        self.request = request; self.avatarID = avatarID
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id")
        guard let k = ConversationKind(rawValue: try f.uint(2, "kind")) else {
            throw .wrongFieldType(tag: 2, name: "kind", expected: "1 (direct) or 2 (group)")
        }
        kind = k
        name = try f.optionalString(3, "name")
        members = try f.records(4, "members")
        lastSeq = try f.optionalUInt(5, "last_seq"); lastActivity = try f.optionalUInt(6, "last_activity")
        unread = try f.optionalUInt(7, "unread"); lastMessage = try f.optionalRecord(8, "last_message")
        deliveredSeq = try f.optionalUInt(9, "delivered_seq"); readSeq = try f.optionalUInt(10, "read_seq")
        request = try f.optionalUInt(11, "request") != 0
        avatarID = f.optionalBytes(12, "avatar_id")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.uint(2, kind.rawValue); w.optionalString(3, name)
        w.records(4, members); w.optionalUInt(5, lastSeq); w.optionalUInt(6, lastActivity)
        w.optionalUInt(7, unread); if let m = lastMessage { w.record(8, m) }
        w.optionalUInt(9, deliveredSeq); w.optionalUInt(10, readSeq); w.optionalBool(11, request)
        if !avatarID.isEmpty { w.bytes(12, avatarID) }
    }
}

/// Where two users stand with each other, seen from the reader of the profile.
public enum ContactState: UInt64, Sendable, CaseIterable {
    /// Neither has asked (or a request was withdrawn).
    case none = 0
    /// Both want each other: presence and last seen are shown.
    case accepted = 1
    /// The reader asked; the other side has not accepted (or declined, which is not told).
    case requested = 2
    /// The other side asked the reader, who has not answered.
    case incoming = 3
}

/// A profile. Presence and last seen are filled only for accepted contacts; anyone else gets
/// the username and display name with `online` false and `last_seen` 0.
public struct Profile: WireMessage {
    public static let frameType = FrameType.profile
    public var user: UserInfo
    public var online: Bool
    /// Milliseconds since the epoch when the last session closed; 0 if never seen or online.
    public var lastSeen: UInt64
    /// Reserved for file sharing: a reference to the avatar image, empty for none.
    public var avatar: String
    public var contactState: ContactState
    /// Marked away with AWAY (tags 12, 13, added after 0.2.0; shown with presence only).
    public var away: Bool
    public var awayMessage: String
    /// Capability `avatars` (tag 14): the profile picture, a file id for FILE_GET; empty for
    /// none, or when the reader may not see it.
    public var avatarID: [UInt8] = []
    /// Tag 15 (0.5.0): the user's time zone (an IANA name or "+09:00"); empty when not set, or
    /// when the reader may not see it (as presence).
    public var timeZone: String = ""

    public init(user: UserInfo, online: Bool, lastSeen: UInt64, avatar: String = "", contactState: ContactState = .none,
                away: Bool = false, awayMessage: String = "", avatarID: [UInt8] = [], timeZone: String = "") {
        self.user = user; self.online = online; self.lastSeen = lastSeen; self.avatar = avatar
        self.contactState = contactState; self.away = away; self.awayMessage = awayMessage; self.avatarID = avatarID
        self.timeZone = timeZone
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        user = try f.record(1, "user"); online = try f.bool(2, "online")
        lastSeen = try f.optionalUInt(3, "last_seen"); avatar = try f.optionalString(4, "avatar")
        // An unknown state from a newer server reads as none: the client shows no presence.
        contactState = ContactState(rawValue: try f.optionalUInt(5, "contact_state")) ?? .none
        away = try f.bool(12, "away"); awayMessage = try f.optionalString(13, "away_message")
        avatarID = f.optionalBytes(14, "avatar_id"); timeZone = try f.optionalString(15, "time_zone")
    }
    public func encode(to w: inout FieldWriter) {
        w.record(1, user); w.optionalBool(2, online); w.optionalUInt(3, lastSeen); w.optionalString(4, avatar)
        w.optionalUInt(5, contactState.rawValue); w.optionalBool(12, away); w.optionalString(13, awayMessage)
        if !avatarID.isEmpty { w.bytes(14, avatarID) }
        w.optionalString(15, timeZone)
    }
}

/// A member's delivered and read markers in a conversation: pushed in RECEIPT, listed in sync.
public struct Receipt: WireMessage {
    public static let frameType = FrameType.receipt
    public var conversationID: UInt64
    public var userID: UInt64
    public var username: String
    /// The member's client has stored every message up to this seq.
    public var deliveredSeq: UInt64
    /// The member has seen every message up to this seq.
    public var readSeq: UInt64

    public init(conversationID: UInt64, userID: UInt64, username: String, deliveredSeq: UInt64, readSeq: UInt64) {
        self.conversationID = conversationID; self.userID = userID; self.username = username
        self.deliveredSeq = deliveredSeq; self.readSeq = readSeq
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); userID = try f.uint(2, "user_id")
        username = try f.string(3, "username"); deliveredSeq = try f.optionalUInt(4, "delivered_seq")
        readSeq = try f.optionalUInt(5, "read_seq")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.uint(2, userID); w.string(3, username)
        w.optionalUInt(4, deliveredSeq); w.optionalUInt(5, readSeq)
    }
}
