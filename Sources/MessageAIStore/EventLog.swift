/// The ordered log of committed events that several server nodes on one database read to
/// deliver each other's commits (issue 26). A capability of the store (`Store.eventLog`): a
/// store that serves one node (SQLite) has none, and the server then delivers at commit only.
///
/// The log says *that* something happened (conversation C reached seq s, a member joined or
/// left), never what: no message text. A reader fetches the facts themselves with `entries`.
public protocol EventLog: AnyObject, Sendable {
    /// Where a node starts reading, and each conversation's last seq as of that point, in one
    /// snapshot: every event at or below the cursor is reflected in those seqs.
    nonisolated(nonsending) func start() async throws -> LogStart
    /// Committed events after `cursor`, in log order, at most `limit`. Never an event behind
    /// which a running transaction could still commit one (so a cursor never skips a row).
    nonisolated(nonsending) func events(after cursor: LogPosition, limit: Int) async throws -> [CommitEvent]
    /// `events(after:limit:)`, with the message each of another process's message events
    /// names, read in the same snapshot: a wake-up costs one round trip, not one more per
    /// conversation for `entries`. A message not found (purged) is simply left out. Also says
    /// whether events were committed past the horizon (`heldBack`): read again soon, since
    /// the transaction that holds them back may commit without a wake-up.
    nonisolated(nonsending) func read(after cursor: LogPosition, limit: Int) async throws -> LogRead
    /// The conversation's messages and changes with seq in (after, through], in seq order,
    /// each marked when this process committed it. `known`: the range's events the caller
    /// has read already, by seq (when they cover it, the store need not read them again).
    nonisolated(nonsending) func entries(conversationID: UInt64, after: UInt64, through: UInt64,
                                         known: [UInt64: CommitEvent]) async throws -> [LogEntry]
    /// Deletes the events older than `cutoff` (milliseconds since the epoch); returns how many.
    @discardableResult nonisolated(nonsending) func purgeEvents(olderThan cutoff: UInt64) async throws -> Int
    /// Yields after each batch of commits anyone made (and once after each (re)connection, for
    /// what happened while it was away). Best effort: a reader also polls.
    func wakeUps() -> AsyncStream<Void>
}

extension EventLog {
    /// A log that cannot join the rows to its events: the events alone (a reader then asks `entries`).
    public nonisolated(nonsending) func read(after cursor: LogPosition, limit: Int) async throws -> LogRead {
        LogRead(events: try await events(after: cursor, limit: limit), entries: [], heldBack: false)
    }
}

/// One read of the log: its events in log order, and the entries (messages) some of them name.
public struct LogRead: Sendable {
    public var events: [CommitEvent]
    public var entries: [LogEntry]
    /// Events after these are committed but not readable yet: a transaction that began
    /// before them is still running (for instance a node's heartbeat, waiting for its flush).
    public var heldBack: Bool
    public init(events: [CommitEvent], entries: [LogEntry], heldBack: Bool) {
        self.events = events
        self.entries = entries
        self.heldBack = heldBack
    }
}

/// A place in the log: the committing transaction's id, then the row's position.
public struct LogPosition: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var xid: UInt64
    public var position: UInt64
    public init(xid: UInt64, position: UInt64) {
        self.xid = xid
        self.position = position
    }
    public static func < (a: LogPosition, b: LogPosition) -> Bool { (a.xid, a.position) < (b.xid, b.position) }
    public var description: String { "\(xid)/\(position)" }
}

public struct LogStart: Sendable {
    public var cursor: LogPosition
    public var lastSeqs: [UInt64: UInt64]
    /// The users on some node at that point (presence events after the cursor change it).
    public var online: Set<UInt64>
    public init(cursor: LogPosition, lastSeqs: [UInt64: UInt64], online: Set<UInt64> = []) {
        self.cursor = cursor
        self.lastSeqs = lastSeqs
        self.online = online
    }
}

public struct CommitEvent: Sendable, Equatable {
    public enum Kind: Int16, Sendable {
        /// A message stored: the conversation reached `seq`.
        case message = 1
        /// A change (reaction, edit, delete) stored: the conversation reached `seq`.
        case change = 2
        /// `userID` joined or left the conversation, or the group was renamed (`userID` 0).
        case membership = 3
        /// `userID`'s delivered or read marker in the conversation rose.
        case receipt = 4
        /// `userID` asked `toUserID` to be a contact, or accepted their request.
        case contact = 5
        /// `userID` came online on some node (`seq` 0) or is on none now (`seq`: last seen).
        case presence = 6
        /// `userID` typed in the conversation.
        case typing = 7
        /// `userID`'s session `seq` ended: its connections close on every node.
        case sessionEnded = 8
        /// `userID`'s profile changed (`seq` bit 1: the avatar did) or the account was disabled (bit 2).
        case profile = 9
        /// An assistant item of the conversation was stored or changed; `seq` is its id.
        case assistItem = 10
    }
    public var position: LogPosition
    public var kind: Kind
    public var conversationID: UInt64
    public var seq: UInt64
    public var userID: UInt64
    /// A contact event's other user (0 otherwise).
    public var toUserID: UInt64 = 0
    /// A message's, change's or assistant item's: the conversation's members version its
    /// transaction saw (`MemberList.version`; 0 unknown). The log sorts by transaction, not by
    /// commit, so a message can be read before a leave that committed ahead of its seq: a
    /// reader whose cached members are older reads them again before pushing it.
    public var membersVersion: UInt64 = 0
    /// Committed by this process (which delivered it to its own connections at commit).
    public var own: Bool
    public init(position: LogPosition, kind: Kind, conversationID: UInt64, seq: UInt64, userID: UInt64, own: Bool) {
        self.position = position
        self.kind = kind
        self.conversationID = conversationID
        self.seq = seq
        self.userID = userID
        self.own = own
    }
}

/// One seq of a conversation as a reader of the log fetches it.
public enum LogEntry: Sendable {
    case message(StoredMessage, own: Bool)
    case change(ChangeRecord, own: Bool)

    public var seq: UInt64 {
        switch self {
        case .message(let m, _): m.seq
        case .change(let c, _): c.seq
        }
    }

    public var conversationID: UInt64 {
        switch self {
        case .message(let m, _): m.conversationID
        case .change(let c, _): c.conversationID
        }
    }

    public var own: Bool {
        switch self {
        case .message(_, let own), .change(_, let own): own
        }
    }
}
