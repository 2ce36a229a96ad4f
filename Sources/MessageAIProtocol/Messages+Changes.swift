/// Replies, reactions, edits and deletes (capability `messageChanges`).
///
/// A change is stored like a message: it takes the next seq of its conversation, is
/// idempotent by (actor, client id), is acknowledged with SEND_ACK and reaches the other
/// members as a MESSAGE_CHANGE push or, for a device that was away, in SYNC_BATCH. A client
/// that applies every change in seq order on top of any earlier state of the message ends
/// with its current state, which is also what the message record itself carries.

/// One member's reaction to a message.
public struct Reaction: FieldCodable, Hashable {
    /// One emoji grapheme (skin tones and ZWJ sequences included).
    public var emoji: String
    public var userID: UInt64
    public var username: String
    public init(emoji: String, userID: UInt64, username: String) {
        self.emoji = emoji; self.userID = userID; self.username = username
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        emoji = try f.string(1, "emoji"); userID = try f.uint(2, "user_id"); username = try f.optionalString(3, "username")
    }
    public func encode(to w: inout FieldWriter) { w.string(1, emoji); w.uint(2, userID); w.optionalString(3, username) }
}

/// CHANGE: react to, unreact, edit or delete the message `targetSeq` (answered with SEND_ACK,
/// whose seq is the change's own; seq 0 with `duplicate` set when it changed nothing, such as
/// adding a reaction the member already has).
///
/// ```
/// conversation_id(1) client_id(2, 16 B) target_seq(3) action(4) emoji(5, react/unreact) text(6, edit)
/// ```
public struct ChangeRequest: WireMessage {
    public static let frameType = FrameType.change
    public var conversationID: UInt64
    public var clientID: [UInt8]
    public var targetSeq: UInt64
    /// A `ChangeAction` raw value; an unknown one is refused with invalid_argument.
    public var action: UInt64
    public var emoji: String
    public var text: String
    public init(conversationID: UInt64, clientID: [UInt8], targetSeq: UInt64, action: ChangeAction,
                emoji: String = "", text: String = "") {
        self.conversationID = conversationID; self.clientID = clientID; self.targetSeq = targetSeq
        self.action = action.rawValue; self.emoji = emoji; self.text = text
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); clientID = try f.bytes(2, "client_id", count: 16)
        targetSeq = try f.uint(3, "target_seq"); action = try f.uint(4, "action")
        emoji = try f.optionalString(5, "emoji"); text = try f.optionalString(6, "text")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.bytes(2, clientID); w.uint(3, targetSeq); w.uint(4, action)
        w.optionalString(5, emoji); w.optionalString(6, text)
    }
    public var changeAction: ChangeAction? { ChangeAction(rawValue: action) }
}

/// MESSAGE_CHANGE: a stored change, pushed to every member's capable connections and listed
/// in SYNC_BATCH. For an edit, `text` is the message's text now (not the text of that edit:
/// earlier versions are not kept), empty once the message was deleted.
public struct MessageChange: WireMessage, Hashable {
    public static let frameType = FrameType.messageChange
    public var conversationID: UInt64
    /// The change's own place in the conversation's sequence.
    public var seq: UInt64
    public var clientID: [UInt8]
    public var actorID: UInt64
    public var actorUsername: String
    public var serverTime: UInt64
    public var targetSeq: UInt64
    public var action: UInt64
    public var emoji: String
    public var text: String
    public init(conversationID: UInt64, seq: UInt64, clientID: [UInt8], actorID: UInt64, actorUsername: String,
                serverTime: UInt64, targetSeq: UInt64, action: ChangeAction, emoji: String = "", text: String = "") {
        self.conversationID = conversationID; self.seq = seq; self.clientID = clientID; self.actorID = actorID
        self.actorUsername = actorUsername; self.serverTime = serverTime; self.targetSeq = targetSeq
        self.action = action.rawValue; self.emoji = emoji; self.text = text
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); seq = try f.uint(2, "seq")
        clientID = try f.bytes(3, "client_id", count: 16); actorID = try f.uint(4, "actor_id")
        actorUsername = try f.string(5, "actor_username"); serverTime = try f.uint(6, "server_time")
        targetSeq = try f.uint(7, "target_seq"); action = try f.uint(8, "action")
        emoji = try f.optionalString(9, "emoji"); text = try f.optionalString(10, "text")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.uint(2, seq); w.bytes(3, clientID); w.uint(4, actorID)
        w.string(5, actorUsername); w.uint(6, serverTime); w.uint(7, targetSeq); w.uint(8, action)
        w.optionalString(9, emoji); w.optionalString(10, text)
    }
    public var changeAction: ChangeAction? { ChangeAction(rawValue: action) }
}

/// The reaction rule shared by server and client: exactly one grapheme that is an emoji
/// (an emoji scalar outside ASCII, skin tones and ZWJ sequences included, or a keycap / flag
/// sequence), at most 64 bytes.
public enum ReactionEmoji {
    public static func isValid(_ s: String) -> Bool {
        guard s.count == 1, s.utf8.count <= 64, let first = s.unicodeScalars.first else { return false }
        let scalars = s.unicodeScalars
        // ASCII digits, # and * are "emoji" only inside a keycap sequence.
        if scalars.contains(where: { $0.properties.isEmoji && $0.value > 0x7F }) {
            // Letters glued on by combining marks are not an emoji.
            return !scalars.contains { $0.properties.isAlphabetic && !$0.properties.isEmoji }
        }
        if scalars.contains(where: { $0.value == 0x20E3 }) { return first.properties.isEmoji }
        return false
    }
}
