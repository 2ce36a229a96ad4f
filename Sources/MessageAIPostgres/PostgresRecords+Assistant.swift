/// The assistant's records, field for field the SQLite store's (`NewAssistItem`,
/// `AssistItemRecord`, `AssistSwitch`), with the product's vocabularies as the store's own
/// enums (the same raw values as MessageAIProtocol's, which this target does not import).
extension PostgresStore {
    public enum AssistItemKind: Int16, Sendable {
        case action = 1
        case decision = 2
    }

    /// Which items a list wants: open ones, all, or open ones the user owns (or everyone).
    public enum AssistItemFilter: Int16, Sendable {
        case open = 0
        case all = 1
        case mine = 2
    }

    /// An item as the extractor produces it, before it has an id and a rev.
    public struct NewAssistItem: Sendable, Equatable {
        public var conversationID: Int64
        public var seq: Int64
        public var kind: AssistItemKind
        /// The item's place among the items of its message (keeps a re-extraction idempotent).
        public var ordinal: Int64
        public var text: String
        public var who: String
        public var due: String
        public var senderID: Int64
        public var engine: String
        public var engineVersion: String
        /// The due date resolved at extraction (ms; 0: none) and the zone it was meant in.
        public var dueAt: Int64 = 0
        public var dueTimeZone: String = ""

        public init(conversationID: Int64, seq: Int64, kind: AssistItemKind, ordinal: Int64, text: String, who: String = "",
                    due: String = "", senderID: Int64, engine: String, engineVersion: String) {
            self.conversationID = conversationID; self.seq = seq; self.kind = kind; self.ordinal = ordinal; self.text = text
            self.who = who; self.due = due; self.senderID = senderID; self.engine = engine; self.engineVersion = engineVersion
        }
    }

    public struct AssistItem: Sendable, Equatable {
        public var id: Int64
        public var conversationID: Int64
        public var seq: Int64
        public var kind: AssistItemKind
        /// Empty once withdrawn (its message deleted, or an edit dropped it).
        public var text: String
        public var who: String
        public var due: String
        /// The sender's username.
        public var from: String
        public var done: Bool
        /// Username of who marked it done, empty when open.
        public var doneBy: String
        public var doneAt: Int64
        /// Raised by every change; readers follow it in order (ASSIST_SYNC).
        public var rev: Int64
        public var engine: String
        public var engineVersion: String
        public var dueAt: Int64
        public var dueTimeZone: String
    }

    /// A conversation's assistant switch.
    public struct AssistSwitch: Sendable, Equatable {
        public var providerOff: Bool
        /// The username of who set it last (empty: never set).
        public var changedBy: String

        public init(providerOff: Bool = false, changedBy: String = "") {
            self.providerOff = providerOff; self.changedBy = changedBy
        }
    }
}
