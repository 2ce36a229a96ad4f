import Logging
import MessageAIStore
import PostgresNIO

/// The reader's one query per wake-up (issue 26): the events after the cursor, each message
/// event of another process joined with its message. Before, a wake-up read the events, then
/// each conversation's messages (`entries`): two round trips, and with several nodes the
/// second was most of the cross-node latency a client sees.
///
/// Own events are not joined: this process pushed those at commit, and the rare lane that
/// needs one again (stalled past its limit) asks `entries`. Changes (reactions, edits,
/// deletes) are not joined either: they are few next to messages, and `entries` reads them
/// with the edited text as it is now.
extension PostgresStore {
    public func read(after cursor: LogPosition, limit: Int) async throws(StoreError) -> LogRead {
        let limit = Self.clamp(limit, max: 10_000)
        let origin = self.origin
        return try await perform { client, logger in
            var read = LogRead(events: [], entries: [], heldBack: false)
            let statement = EventRead(xid: String(cursor.xid), position: Int64(clamping: cursor.position), origin: origin,
                                      limit: Int64(limit))
            for try await row in try await client.execute(statement, logger: logger) {
                // Every row after a held-back one is held back too (they sort by xid): read to
                // the end all the same, which leaves the connection's stream drained.
                guard !read.heldBack else { continue }
                var columns = Columns(row)
                let (xid, position, kind, conversation, seq, user, toUser, version, own, readable) =
                    (try columns.next(String.self), try columns.next(UInt64.self), try columns.next(Int16.self),
                     try columns.next(UInt64.self), try columns.next(UInt64.self), try columns.next(UInt64.self),
                     try columns.next(UInt64.self), try columns.next(UInt64.self), try columns.next(Bool.self),
                     try columns.next(Bool.self))
                guard readable else {
                    read.heldBack = true
                    continue
                }
                var event = CommitEvent(position: LogPosition(xid: UInt64(xid) ?? 0, position: position),
                                        kind: CommitEvent.Kind(rawValue: kind) ?? .membership,
                                        conversationID: conversation, seq: seq, userID: user, own: own)
                event.toUserID = toUser
                event.membersVersion = version
                read.events.append(event)
                // The message's first column is NULL when nothing was joined.
                if try columns.peekIsNull() { continue }
                // Pushed with the version its seq was taken under (schema v15), as its writer pushed it.
                var message = try Self.message(&columns)
                message.membersVersion = version
                read.entries.append(.message(message, own: own))
            }
            return read
        }
    }
}

/// The reader's query, prepared once per connection: it runs on every wake-up of every node,
/// and planning it each time (an unnamed statement) cost more than the round trip it saves
/// (pgbench on this machine: 3.6 ms planned each time, 0.5 ms prepared).
///
/// The order of `events(after:limit:)`, but the horizon is a column, not a filter: a visible
/// row at or above it is committed and held back (a running transaction has an older xid),
/// and the reader learns so in the same round trip. Those rows sort last (by xid), so the
/// readable ones are a prefix. The events are taken first (LIMIT in a subquery: an index scan
/// that stops), then each readable message event of another process looks up its message by
/// key: `OFFSET 0` keeps the lateral subquery from being flattened into a join that the
/// planner, without statistics on a young table, ran as sequential scans of `messages`.
/// (The text of the xid is named apart, as in `events(after:limit:)`.)
struct EventRead: PostgresPreparedStatement {
    static let name = "messageai_event_read"
    static var sql: String {
        """
        SELECT e.xid::text AS xid_text, e.position, e.kind, e.conversation_id, e.seq, e.user_id, e.to_user_id,
               e.members_version, e.own, e.readable, m.*
        FROM (SELECT e.*, e.origin IS NOT DISTINCT FROM $3 AS own,
                     e.xid < pg_snapshot_xmin(pg_current_snapshot()) AS readable
              FROM events e WHERE (e.xid, e.position) > ($1::xid8, $2)
              ORDER BY e.xid, e.position LIMIT $4) e
        LEFT JOIN LATERAL (
            SELECT \(PostgresStore.messageColumns) \(PostgresStore.messageJoins)
            WHERE e.kind = 1 AND NOT e.own AND e.readable AND m.conversation_id = e.conversation_id AND m.seq = e.seq
            OFFSET 0) m ON true
        ORDER BY e.xid, e.position
        """
    }
    typealias Row = PostgresRow
    var xid: String
    var position: Int64
    var origin: Int64
    var limit: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(xid)
        bindings.append(position)
        bindings.append(origin)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// A row's columns read one after another, so that one row can carry an event and a message.
struct Columns {
    private let row: PostgresRandomAccessRow
    private var index = 0

    init(_ row: PostgresRow) { self.row = row.makeRandomAccess() }

    mutating func next<T: PostgresDecodable>(_: T.Type) throws -> T {
        defer { index += 1 }
        return try row[index].decode(T.self)
    }

    func peekIsNull() throws -> Bool { row[index].bytes == nil }
}
