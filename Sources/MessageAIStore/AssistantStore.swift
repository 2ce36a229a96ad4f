import MessageAIVocabulary  // ConversationKind, ChangeAction, AssistItemKind, AssistItemFilter

/// An item as the extractor produces it, before it has an id and a rev.
public struct NewAssistItem: Equatable, Sendable {
    public var conversationID: UInt64
    public var seq: UInt64
    public var kind: AssistItemKind
    /// The item's place among the items of its message (keeps a re-extraction idempotent).
    public var ordinal: Int
    public var text: String
    public var who: String
    public var due: String
    public var senderID: UInt64
    public var engine: String
    public var engineVersion: String
    /// The due date resolved at extraction (ms; 0: none) and the zone it was meant in.
    public var dueAt: UInt64 = 0
    public var dueTimeZone: String = ""

    public init(conversationID: UInt64, seq: UInt64, kind: AssistItemKind, ordinal: Int, text: String, who: String = "",
                due: String = "", senderID: UInt64, engine: String, engineVersion: String) {
        self.conversationID = conversationID; self.seq = seq; self.kind = kind; self.ordinal = ordinal; self.text = text
        self.who = who; self.due = due; self.senderID = senderID; self.engine = engine; self.engineVersion = engineVersion
    }
}

/// A conversation's assistant switch.
public struct AssistSwitch: Equatable, Sendable {
    public var providerOff: Bool
    /// The username of who set it last (empty: never set).
    public var changedBy: String
    public init(providerOff: Bool = false, changedBy: String = "") { self.providerOff = providerOff; self.changedBy = changedBy }
}

/// The assistant's storage (migration `v5_assistant`). Kept apart from `Store` so the assistant
/// can be left out of a store that does not have it (reached through `Store.assistant`, nil
/// then); the SQLite store implements both. Like
/// `Store`, called from the hub queue only.
/// Sendable so that a closure may carry it back to the hub queue, which alone calls it.
public protocol AssistantStore: AnyObject, Sendable {
    /// Stores the items in one transaction, each with the next rev; an item already stored for
    /// the same message and place, or an action the same owner already has open with the same
    /// words (an ask, then "I'll do it"), is skipped. Returns the items stored now.
    nonisolated(nonsending) func insertItems(_ items: [NewAssistItem], now: UInt64) async throws -> [AssistItemRecord]
    /// Newest first, in the user's conversations (or one of them).
    nonisolated(nonsending) func items(userID: UInt64, conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind?, limit: Int) async throws -> [AssistItemRecord]
    /// Items of the user's conversations with rev > `sinceRev`, ascending by rev.
    nonisolated(nonsending) func itemsChanged(userID: UInt64, sinceRev: UInt64, limit: Int) async throws -> [AssistItemRecord]
    /// The items extracted from one message, withdrawn ones (empty text: the message was
    /// deleted) included.
    nonisolated(nonsending) func items(conversationID: UInt64, seq: UInt64) async throws -> [AssistItemRecord]
    /// The items with these ids as they are now, withdrawn ones included, by id (another
    /// node's writes, named by the event log, pushed here as that node pushed them).
    nonisolated(nonsending) func items(ids: [UInt64]) async throws -> [AssistItemRecord]
    /// The items of one message become `items` (an edit, or a second opinion): an item still
    /// there keeps its id and done mark; the others are withdrawn. Returns the rows changed.
    nonisolated(nonsending) func replaceItems(conversationID: UInt64, seq: UInt64, with replacement: [NewAssistItem], now: UInt64) async throws -> [AssistItemRecord]
    /// A new rev for every live item of the conversation (a member was added); returns them.
    nonisolated(nonsending) func reannounceItems(conversationID: UInt64) async throws -> [AssistItemRecord]
    /// The item if the user is a member of its conversation and it was not withdrawn.
    nonisolated(nonsending) func item(id: UInt64, visibleTo userID: UInt64) async throws -> AssistItemRecord?
    /// Marks the item done by the user (or open again); a new rev only when it changed.
    nonisolated(nonsending) func setItemDone(id: UInt64, by userID: UInt64, done: Bool, now: UInt64) async throws -> (item: AssistItemRecord, changed: Bool)
    /// The highest rev given out (0: none).
    nonisolated(nonsending) func assistantCursor() async throws -> UInt64

    nonisolated(nonsending) func cachedSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String) async throws -> [UInt8]?
    nonisolated(nonsending) func cacheSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String,
                      answer: [UInt8], now: UInt64) async throws

    nonisolated(nonsending) func assistSwitch(conversationID: UInt64) async throws -> AssistSwitch
    nonisolated(nonsending) func setProviderOff(conversationID: UInt64, by userID: UInt64, off: Bool, now: UInt64) async throws

    /// Provider requests the user made on `day` (days since the epoch, UTC).
    nonisolated(nonsending) func providerRequests(userID: UInt64, day: UInt64) async throws -> Int
    nonisolated(nonsending) func countProviderRequest(userID: UInt64, day: UInt64) async throws
}
