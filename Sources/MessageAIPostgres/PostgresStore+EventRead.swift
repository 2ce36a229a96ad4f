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
            // The order of `events(after:limit:)`, but the horizon is a column, not a filter:
            // a visible row at or above it is committed and held back (a running transaction
            // has an older xid), and the reader learns so in the same round trip. Those rows
            // sort last (by xid), so the readable ones are a prefix. The events are taken first
            // (LIMIT in a subquery: an index scan that stops), then each readable message event
            // of another process looks up its message by key: `OFFSET 0` keeps the lateral
            // subquery from being flattened into a join that the planner, without statistics
            // on a young table, ran as sequential scans of `messages` (seen in the benchmark).
            for row in try await client.allRows("""
                SELECT e.xid::text AS xid_text, e.position, e.kind, e.conversation_id, e.seq, e.user_id, e.to_user_id,
                       e.own, e.readable, m.*
                FROM (SELECT e.*, e.origin IS NOT DISTINCT FROM \(origin) AS own,
                             e.xid < pg_snapshot_xmin(pg_current_snapshot()) AS readable
                      FROM events e WHERE (e.xid, e.position) > (\(String(cursor.xid))::xid8, \(cursor.position))
                      ORDER BY e.xid, e.position LIMIT \(limit)) e
                LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                    WHERE e.kind = 1 AND NOT e.own AND e.readable AND m.conversation_id = e.conversation_id AND m.seq = e.seq
                    OFFSET 0) m ON true
                ORDER BY e.xid, e.position
                """, logger: logger) {
                var columns = Columns(row)
                let (xid, position, kind, conversation, seq, user, toUser, own, readable) =
                    (try columns.next(String.self), try columns.next(UInt64.self), try columns.next(Int16.self),
                     try columns.next(UInt64.self), try columns.next(UInt64.self), try columns.next(UInt64.self),
                     try columns.next(UInt64.self), try columns.next(Bool.self), try columns.next(Bool.self))
                guard readable else {
                    read.heldBack = true
                    break
                }
                var event = CommitEvent(position: LogPosition(xid: UInt64(xid) ?? 0, position: position),
                                        kind: CommitEvent.Kind(rawValue: kind) ?? .membership,
                                        conversationID: conversation, seq: seq, userID: user, own: own)
                event.toUserID = toUser
                read.events.append(event)
                // The message's first column is NULL when nothing was joined.
                if try columns.peekIsNull() { continue }
                read.entries.append(.message(try Self.message(&columns), own: own))
            }
            return read
        }
    }
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
