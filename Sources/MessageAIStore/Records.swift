import MessageAIVocabulary  // ConversationKind, ChangeAction, AssistItemKind, AssistItemFilter

// The store's own records: what the store interface takes and returns, apart from the wire.
// The handlers turn them into frames (`Server/Records+Wire.swift`); a second backend returns
// the same records. Field names follow the protocol's, so a reader of both sees one model.

/// A member of a conversation, a reaction's author, a marker's owner: who, by name.
public struct MemberRecord: Equatable, Hashable, Sendable {
    public var userID: UInt64
    public var username: String
    public var displayName: String
    public init(userID: UInt64, username: String, displayName: String) {
        self.userID = userID; self.username = username; self.displayName = displayName
    }
}

/// A file as a message carries it (its caption and thumbnail included).
public struct AttachmentRecord: Equatable, Hashable, Sendable {
    public var fileID: [UInt8]
    public var name: String
    public var size: UInt64
    public var mediaType: String
    public var sha256: [UInt8]
    public var width: UInt64
    public var height: UInt64
    public var thumbnail: [UInt8]
    public var caption: String
    public init(fileID: [UInt8], name: String = "", size: UInt64 = 0, mediaType: String = "", sha256: [UInt8] = [],
                width: UInt64 = 0, height: UInt64 = 0, thumbnail: [UInt8] = [], caption: String = "") {
        self.fileID = fileID; self.name = name; self.size = size; self.mediaType = mediaType; self.sha256 = sha256
        self.width = width; self.height = height; self.thumbnail = thumbnail; self.caption = caption
    }
}

/// One member's reaction to a message.
public struct ReactionRecord: Equatable, Hashable, Sendable {
    public var emoji: String
    public var userID: UInt64
    public var username: String
    public init(emoji: String, userID: UInt64, username: String) {
        self.emoji = emoji; self.userID = userID; self.username = username
    }
}

/// A stored message in its current state (edits, delete and reactions applied).
public struct StoredMessage: Equatable, Hashable, Sendable {
    public var conversationID: UInt64
    /// Position in the conversation, from 1, gapless (messages and changes share it).
    public var seq: UInt64
    public var clientID: [UInt8]
    public var senderID: UInt64
    public var senderUsername: String
    public var serverTime: UInt64
    /// Empty once deleted; with an attachment, its fallback line (name, size, caption).
    public var text: String
    /// 1 = text (the only kind stored so far).
    public var kind: UInt64
    public var replyTo: UInt64
    public var editedAt: UInt64
    public var deleted: Bool
    /// Filled in by `Store.withReactions` (the reading paths that show them ask for them).
    public var reactions: [ReactionRecord]
    public var attachment: AttachmentRecord?
    /// The conversation's members version its seq was taken under (`MemberList.version`), as
    /// the append that stored it answers on PostgreSQL; 0 (unknown) everywhere else. What one
    /// commit saw, not part of the message: a message read back equals the one appended.
    @NotCompared public var membersVersion: UInt64

    public init(conversationID: UInt64, seq: UInt64, clientID: [UInt8], senderID: UInt64, senderUsername: String,
                serverTime: UInt64, text: String, kind: UInt64 = 1, replyTo: UInt64 = 0, editedAt: UInt64 = 0, deleted: Bool = false,
                reactions: [ReactionRecord] = [], attachment: AttachmentRecord? = nil, membersVersion: UInt64 = 0) {
        self.conversationID = conversationID; self.seq = seq; self.clientID = clientID; self.senderID = senderID
        self.senderUsername = senderUsername; self.serverTime = serverTime; self.text = text; self.kind = kind; self.replyTo = replyTo
        self.editedAt = editedAt; self.deleted = deleted; self.reactions = reactions; self.attachment = attachment
        self.membersVersion = membersVersion
    }
}

/// A stored change (reaction, unreaction, edit, delete) with its own seq.
public struct ChangeRecord: Equatable, Hashable, Sendable {
    public var conversationID: UInt64
    public var seq: UInt64
    public var clientID: [UInt8]
    public var actorID: UInt64
    public var actorUsername: String
    public var serverTime: UInt64
    public var targetSeq: UInt64
    /// A `ChangeAction` raw value.
    public var action: UInt64
    public var emoji: String
    /// An edit's new text, as it is now (empty once the message was deleted).
    public var text: String
    /// As `StoredMessage.membersVersion`: answered by PostgreSQL's apply, 0 (unknown) elsewhere.
    @NotCompared public var membersVersion: UInt64

    public init(conversationID: UInt64, seq: UInt64, clientID: [UInt8], actorID: UInt64, actorUsername: String,
                serverTime: UInt64, targetSeq: UInt64, action: UInt64, emoji: String = "", text: String = "",
                membersVersion: UInt64 = 0) {
        self.conversationID = conversationID; self.seq = seq; self.clientID = clientID; self.actorID = actorID
        self.actorUsername = actorUsername; self.serverTime = serverTime; self.targetSeq = targetSeq
        self.action = action; self.emoji = emoji; self.text = text; self.membersVersion = membersVersion
    }
}

/// One conversation as one user sees it: members, last message, unread count, own markers.
public struct ConversationEntry: Equatable, Sendable {
    public var conversationID: UInt64
    public var kind: ConversationKind
    public var name: String
    public var members: [MemberRecord]
    public var lastSeq: UInt64
    public var lastActivity: UInt64
    /// Messages from others above the user's read marker.
    public var unread: UInt64
    public var lastMessage: StoredMessage?
    public var deliveredSeq: UInt64
    public var readSeq: UInt64
    /// The user holds it as a message request.
    public var request: Bool
    /// The group's avatar file, empty for none.
    public var avatarID: [UInt8]

    public init(conversationID: UInt64, kind: ConversationKind, name: String, members: [MemberRecord],
                lastSeq: UInt64 = 0, lastActivity: UInt64 = 0, unread: UInt64 = 0, lastMessage: StoredMessage? = nil,
                deliveredSeq: UInt64 = 0, readSeq: UInt64 = 0, request: Bool = false, avatarID: [UInt8] = []) {
        self.conversationID = conversationID; self.kind = kind; self.name = name; self.members = members
        self.lastSeq = lastSeq; self.lastActivity = lastActivity; self.unread = unread; self.lastMessage = lastMessage
        self.deliveredSeq = deliveredSeq; self.readSeq = readSeq; self.request = request; self.avatarID = avatarID
    }
}

/// An action item or decision the assistant extracted, in its current state.
public struct AssistItemRecord: Equatable, Sendable {
    public var itemID: UInt64
    public var conversationID: UInt64
    public var seq: UInt64
    public var kind: AssistItemKind
    public var text: String
    public var who: String
    public var due: String
    /// The sender's username.
    public var from: String
    public var done: Bool
    public var doneBy: String
    public var doneAt: UInt64
    /// Raised by every change; readers follow it in order (ASSIST_SYNC).
    public var rev: UInt64
    public var engine: String
    public var engineVersion: String
    /// The due date placed on a calendar (ms since 1970, 0: none) and the zone it was meant in
    /// (schema v17).
    public var dueAt: UInt64 = 0
    public var dueTimeZone: String = ""

    public init(itemID: UInt64, conversationID: UInt64, seq: UInt64, kind: AssistItemKind, text: String, who: String = "",
                due: String = "", from: String, done: Bool = false, doneBy: String = "", doneAt: UInt64 = 0, rev: UInt64,
                engine: String, engineVersion: String) {
        self.itemID = itemID; self.conversationID = conversationID; self.seq = seq; self.kind = kind; self.text = text
        self.who = who; self.due = due; self.from = from; self.done = done; self.doneBy = doneBy; self.doneAt = doneAt
        self.rev = rev; self.engine = engine; self.engineVersion = engineVersion
    }
}

/// A field that equality and hashing leave out: what a commit reported about a record (the
/// members version it saw), which a record read back later cannot know.
@propertyWrapper
public struct NotCompared<Value: Sendable>: Equatable, Hashable, Sendable {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public static func == (_: Self, _: Self) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
