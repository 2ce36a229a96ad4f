/// The PostgreSQL store's own records: plain values, no wire types, no database types. The
/// shared store interface of issue 25 maps them to its records in an adapter; their fields
/// follow the SQLite store's (`UserRecord`, `ConversationRecord`, `ChatMessage`, ...) one for
/// one so that the mapping is mechanical. Ids and times are `Int64` (PostgreSQL's BIGINT);
/// times are milliseconds since the epoch.
extension PostgresStore {
    public struct User: Sendable, Equatable {
        public var id: Int64
        public var username: String
        public var email: String
        public var displayName: String
        /// The encoded hash; never the password.
        public var passwordHash: String
        public var createdAt: Int64
        /// 0 when never seen.
        public var lastSeen: Int64
        /// An IANA name or a fixed offset as the user's client sent it; empty: not known (v4).
        public var timeZone: String = ""
    }

    public struct Session: Sendable, Equatable {
        public var id: Int64
        public var userID: Int64
        /// SHA-256 of the token; the token is never stored.
        public var tokenHash: [UInt8]
        public var device: String
        public var createdAt: Int64
        public var lastUsedAt: Int64
    }

    public enum ConversationKind: Int16, Sendable {
        case direct = 1
        case group = 2
    }

    public struct Conversation: Sendable, Equatable {
        public var id: Int64
        public var kind: ConversationKind
        public var name: String
        public var createdAt: Int64
        /// The last position taken, by a message or a change.
        public var lastSeq: Int64
        public var lastActivity: Int64
        /// The group's avatar file, empty for none (SQLite's `ConversationRecord.avatarID`).
        public var avatarID: [UInt8] = []
    }

    /// A conversation as one member sees it in their list.
    public struct ConversationView: Sendable, Equatable {
        public var conversation: Conversation
        /// (id, username, display name), ordered by username.
        public var members: [Member]
        /// Messages from others above the member's read marker (deleted ones included, as on SQLite).
        public var unread: Int64
        /// The newest message (a change is not one), nil when there is none.
        public var lastMessage: Message?
        public var deliveredSeq: Int64
        public var readSeq: Int64
        /// The member holds it as a message request.
        public var request: Bool
    }

    public struct Member: Sendable, Equatable {
        public var id: Int64
        public var username: String
        public var displayName: String
    }

    public struct Marker: Sendable, Equatable {
        public var member: Member
        public var deliveredSeq: Int64
        public var readSeq: Int64
        public var pending: Bool
    }

    public struct Message: Sendable, Equatable {
        public var conversationID: Int64
        public var seq: Int64
        public var clientID: [UInt8]
        public var senderID: Int64
        public var senderUsername: String
        public var serverTime: Int64
        /// Empty once deleted.
        public var text: String
        /// The seq this message answers, 0 for none.
        public var replyTo: Int64
        /// 0 when never edited.
        public var editedAt: Int64
        public var deleted: Bool
        /// The attached file's id, nil for none (the file's record comes with the files port).
        public var fileID: [UInt8]?
    }

    public enum ChangeAction: Int16, Sendable {
        case react = 1
        case unreact = 2
        case edit = 3
        case delete = 4
    }

    /// A change as stored and synced: an edit carries the message's text now (the text it had
    /// when the change was made is not kept), any other change no text.
    public struct Change: Sendable, Equatable {
        public var conversationID: Int64
        public var seq: Int64
        public var clientID: [UInt8]
        public var actorID: Int64
        public var actorUsername: String
        public var serverTime: Int64
        public var targetSeq: Int64
        public var action: ChangeAction
        public var emoji: String
        public var text: String
    }

    public struct Reaction: Sendable, Equatable {
        public var emoji: String
        public var userID: Int64
        public var username: String
    }

    /// A message to store, as received in SEND.
    public struct NewMessage: Sendable {
        public var conversationID: Int64
        public var senderID: Int64
        public var clientID: [UInt8]
        public var text: String
        public var serverTime: Int64
        /// The seq this message answers (0: none). It must be a message of the conversation
        /// that is not deleted, or the send is refused with `replyTargetMissing`.
        public var replyTo: Int64
        public var fileID: [UInt8]?

        public init(conversationID: Int64, senderID: Int64, clientID: [UInt8], text: String, serverTime: Int64,
                    replyTo: Int64 = 0, fileID: [UInt8]? = nil) {
            self.conversationID = conversationID; self.senderID = senderID; self.clientID = clientID
            self.text = text; self.serverTime = serverTime; self.replyTo = replyTo; self.fileID = fileID
        }
    }

    /// A change to store, as received in CHANGE and checked by the caller (sender, window, emoji).
    public struct NewChange: Sendable {
        public var conversationID: Int64
        public var actorID: Int64
        public var clientID: [UInt8]
        public var targetSeq: Int64
        public var action: ChangeAction
        public var emoji: String
        /// The new text of an edit.
        public var text: String
        public var serverTime: Int64

        public init(conversationID: Int64, actorID: Int64, clientID: [UInt8], targetSeq: Int64, action: ChangeAction,
                    emoji: String = "", text: String = "", serverTime: Int64) {
            self.conversationID = conversationID; self.actorID = actorID; self.clientID = clientID
            self.targetSeq = targetSeq; self.action = action; self.emoji = emoji; self.text = text; self.serverTime = serverTime
        }
    }

    public enum ChangeOutcome: Sendable, Equatable {
        /// Stored with the next seq and applied.
        case stored(Change)
        /// It would change nothing (a reaction the member has, removing one they do not have):
        /// nothing stored, no seq taken.
        case unchanged
        /// The actor stored this change before under this client id (a resend): the original.
        case duplicate(Change)
        /// The actor used this client id for a message: nothing stored.
        case clientIDReused
    }
}
