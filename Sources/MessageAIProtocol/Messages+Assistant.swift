/// The assistant's frames (0x0701-0x070B), sent only between peers that both announced the
/// `assistant` capability. Items (action items and decisions) are extracted by the server from
/// committed messages; they change when a member marks one done or undoes that, and every
/// change bumps the item's `rev`, a server-wide counter that is the per-user sync cursor.

extension Capabilities {
    /// The peer speaks the assistant's frames (PROTOCOL.md "Assistant").
    public static let assistant = Capabilities(rawValue: 1 << 1)
}

extension FrameType {
    public static let assistItemsList = FrameType(rawValue: 0x0701)
    public static let assistItems = FrameType(rawValue: 0x0702)
    public static let assistItemDone = FrameType(rawValue: 0x0703)
    public static let assistSync = FrameType(rawValue: 0x0704)
    public static let assistSummary = FrameType(rawValue: 0x0705)
    public static let assistSummaryResult = FrameType(rawValue: 0x0706)
    public static let assistCheck = FrameType(rawValue: 0x0707)
    public static let assistCheckResult = FrameType(rawValue: 0x0708)
    public static let assistSettingsSet = FrameType(rawValue: 0x0709)
    public static let assistSettings = FrameType(rawValue: 0x070A)
    public static let assistSettingsGet = FrameType(rawValue: 0x070B)
}

/// One action item or decision, as extracted from the message at (`conversationID`, `seq`).
public struct AssistItem: FieldCodable, Equatable {
    public var itemID: UInt64
    public var conversationID: UInt64
    public var seq: UInt64
    public var kind: AssistItemKind
    /// For an action, what is to be done ("tag the 2.3 hotfix branch"); for a decision, its text.
    public var text: String
    /// The owner of an action: a member's username, or "everyone" for a whole group. Empty for decisions.
    public var who: String
    /// As written ("5pm", "Friday EOD"); empty when none.
    public var due: String
    /// The username of the message's sender.
    public var from: String
    public var done: Bool
    /// Who marked it done, and when (ms); empty and 0 when open.
    public var doneBy: String
    public var doneAt: UInt64
    /// Raised by every change; the highest one a client holds is its ASSIST_SYNC cursor.
    public var rev: UInt64
    public var engine: String
    public var engineVersion: String
    /// Tags 15, 16 (0.5.0): the due date resolved by the server (ms since the epoch; 0 when the
    /// text names no day or time that can be placed), and the zone it was meant in.
    public var dueAt: UInt64 = 0
    public var dueTimeZone: String = ""

    public init(itemID: UInt64, conversationID: UInt64, seq: UInt64, kind: AssistItemKind, text: String, who: String = "",
                due: String = "", from: String, done: Bool = false, doneBy: String = "", doneAt: UInt64 = 0, rev: UInt64,
                engine: String, engineVersion: String) {
        self.itemID = itemID; self.conversationID = conversationID; self.seq = seq; self.kind = kind; self.text = text
        self.who = who; self.due = due; self.from = from; self.done = done; self.doneBy = doneBy; self.doneAt = doneAt
        self.rev = rev; self.engine = engine; self.engineVersion = engineVersion
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        itemID = try f.uint(1, "item_id"); conversationID = try f.uint(2, "conversation_id"); seq = try f.uint(3, "seq")
        let k = try f.uint(4, "kind")
        guard let kind = AssistItemKind(rawValue: k) else { throw .wrongFieldType(tag: 4, name: "kind", expected: "1 or 2") }
        self.kind = kind
        text = try f.string(5, "text"); who = try f.optionalString(6, "who"); due = try f.optionalString(7, "due")
        from = try f.optionalString(8, "from"); done = try f.bool(9, "done"); doneBy = try f.optionalString(10, "done_by")
        doneAt = try f.optionalUInt(11, "done_at"); rev = try f.uint(12, "rev")
        engine = try f.optionalString(13, "engine"); engineVersion = try f.optionalString(14, "engine_version")
        dueAt = try f.optionalUInt(15, "due_at"); dueTimeZone = try f.optionalString(16, "due_time_zone")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, itemID); w.uint(2, conversationID); w.uint(3, seq); w.uint(4, kind.rawValue); w.string(5, text)
        w.optionalString(6, who); w.optionalString(7, due); w.optionalString(8, from); w.optionalBool(9, done)
        w.optionalString(10, doneBy); w.optionalUInt(11, doneAt); w.uint(12, rev)
        w.optionalString(13, engine); w.optionalString(14, engineVersion)
        w.optionalUInt(15, dueAt); w.optionalString(16, dueTimeZone)
    }
}

/// ASSIST_ITEMS_LIST: items of one conversation (0: every conversation of the user), newest
/// first, answered with ASSIST_ITEMS.
public struct AssistItemsList: WireMessage {
    public static let frameType = FrameType.assistItemsList
    public var conversationID: UInt64
    public var filter: AssistItemFilter
    /// 0: both kinds.
    public var kind: UInt64
    /// 0 means 100; capped at 500.
    public var limit: UInt64
    public init(conversationID: UInt64 = 0, filter: AssistItemFilter = .open, kind: AssistItemKind? = nil, limit: UInt64 = 0) {
        self.conversationID = conversationID; self.filter = filter; self.kind = kind?.rawValue ?? 0; self.limit = limit
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.optionalUInt(1, "conversation_id")
        guard let filter = AssistItemFilter(rawValue: try f.optionalUInt(2, "filter")) else {
            throw .wrongFieldType(tag: 2, name: "filter", expected: "0, 1 or 2")
        }
        self.filter = filter
        kind = try f.optionalUInt(3, "kind"); limit = try f.optionalUInt(4, "limit")
    }
    public func encode(to w: inout FieldWriter) {
        w.optionalUInt(1, conversationID); w.optionalUInt(2, filter.rawValue); w.optionalUInt(3, kind); w.optionalUInt(4, limit)
    }
}

/// ASSIST_ITEMS: the answer to ASSIST_ITEMS_LIST, ASSIST_SYNC and ASSIST_ITEM_DONE, and a push
/// (request id 0) to every online member when items are added or change.
public struct AssistItems: WireMessage {
    public static let frameType = FrameType.assistItems
    public var items: [AssistItem]
    /// The highest rev the server has assigned (ASSIST_SYNC's next `since_rev` once complete).
    public var cursor: UInt64
    /// ASSIST_SYNC: more changes follow after the last item's rev.
    public var hasMore: Bool
    public init(items: [AssistItem], cursor: UInt64, hasMore: Bool = false) {
        self.items = items; self.cursor = cursor; self.hasMore = hasMore
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        items = try f.records(1, "items"); cursor = try f.optionalUInt(2, "cursor"); hasMore = try f.bool(3, "has_more")
    }
    public func encode(to w: inout FieldWriter) { w.records(1, items); w.optionalUInt(2, cursor); w.optionalBool(3, hasMore) }
}

/// ASSIST_ITEM_DONE: marks an action item done (done = 1) or open again (done absent: undo).
/// Answered with ASSIST_ITEMS holding the item; the other members' sessions get it pushed.
public struct AssistItemDone: WireMessage {
    public static let frameType = FrameType.assistItemDone
    public var itemID: UInt64
    public var done: Bool
    public init(itemID: UInt64, done: Bool) { self.itemID = itemID; self.done = done }
    public init(from f: FieldReader) throws(ProtocolError) { itemID = try f.uint(1, "item_id"); done = try f.bool(2, "done") }
    public func encode(to w: inout FieldWriter) { w.uint(1, itemID); w.optionalBool(2, done) }
}

/// ASSIST_SYNC: every item of the user's conversations with rev > `sinceRev`, ascending by rev,
/// in ASSIST_ITEMS pages of at most 500 (`has_more`: ask again from the last rev).
public struct AssistSync: WireMessage {
    public static let frameType = FrameType.assistSync
    public var sinceRev: UInt64
    public init(sinceRev: UInt64) { self.sinceRev = sinceRev }
    public init(from f: FieldReader) throws(ProtocolError) { sinceRev = try f.optionalUInt(1, "since_rev") }
    public func encode(to w: inout FieldWriter) { w.optionalUInt(1, sinceRev) }
}
