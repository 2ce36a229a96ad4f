import Logging
import MessageAIStore
import PostgresNIO

/// Reading the event log (PostgresSchema+V7.swift) by position: the reader's half of
/// commit-as-publish. See `EventLog` for what each call promises.
extension PostgresStore: EventLog {
    public var eventLog: EventLog? { self }

    /// The cursor is the oldest running transaction's xid at the snapshot, position 0: every
    /// event below it is committed and counted in `last_seq`; an event at or above it may or
    /// may not be, and is read again (a seq already counted is then no news to the reader).
    public func start() async throws(StoreError) -> LogStart {
        try await perform { client, logger in
            try await client.withConnection { db in
                try await db.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                do {
                    let xmin = try await db.firstRow("SELECT pg_snapshot_xmin(pg_current_snapshot())::text",
                                                     logger: logger)?.decode(String.self)
                    var seqs: [UInt64: UInt64] = [:]
                    for row in try await db.allRows("SELECT id, last_seq FROM conversations WHERE last_seq > 0", logger: logger) {
                        let (id, seq) = try row.decode((UInt64, UInt64).self)
                        seqs[id] = seq
                    }
                    var online = Set<UInt64>()
                    for row in try await db.allRows("SELECT DISTINCT user_id FROM node_users", logger: logger) {
                        online.insert(try row.decode(UInt64.self))
                    }
                    try await db.query("COMMIT", logger: logger)
                    return LogStart(cursor: LogPosition(xid: xmin.flatMap { UInt64($0) } ?? 0, position: 0), lastSeqs: seqs,
                                    online: online)
                } catch {
                    _ = try? await db.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }

    /// Only below the oldest running transaction's xid: a transaction that started earlier and
    /// commits later would otherwise put its row behind a cursor that has moved past it.
    /// (The text of the xid is named apart: `ORDER BY xid` would sort by an output column
    /// called `xid`, as text, before the table's column; '1000' < '999'.)
    public func events(after cursor: LogPosition, limit: Int) async throws(StoreError) -> [CommitEvent] {
        let limit = Self.clamp(limit, max: 10_000)
        let origin = self.origin
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT e.xid::text AS xid_text, e.position, e.kind, e.conversation_id, e.seq, e.user_id, e.to_user_id,
                       e.members_version, e.origin IS NOT DISTINCT FROM \(origin)
                FROM events e
                WHERE (e.xid, e.position) > (\(String(cursor.xid))::xid8, \(cursor.position))
                  AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
                ORDER BY e.xid, e.position LIMIT \(limit)
                """, logger: logger).map { row in
                let (xid, position, kind, conversation, seq, user, toUser, version, own) =
                    try row.decode((String, UInt64, Int16, UInt64, UInt64, UInt64, UInt64, UInt64, Bool).self)
                var event = CommitEvent(position: LogPosition(xid: UInt64(xid) ?? 0, position: position),
                                        kind: CommitEvent.Kind(rawValue: kind) ?? .membership,
                                        conversationID: conversation, seq: seq, userID: user, own: own)
                event.toUserID = toUser
                event.membersVersion = version
                return event
            }
        }
    }

    /// Messages and changes in the range, with whether this process wrote them and the members
    /// version each was made under (from their events; an event already purged reads as
    /// another's, version 0). At most 1,000 seqs per call. The events also say whether any seq
    /// is a change; when each seq has its event and none is, the changes are not asked for.
    public func entries(conversationID: UInt64, after: UInt64, through: UInt64,
                        known: [UInt64: CommitEvent] = [:]) async throws(StoreError) -> [LogEntry] {
        guard through > after else { return [] }
        let through = Swift.min(through, after + 1_000)
        let origin = self.origin
        let range = (after + 1)...through
        let covered = known.count >= range.count && range.allSatisfy { known[$0] != nil }
        return try await perform { client, logger in
            var own = Set<UInt64>(), versions: [UInt64: UInt64] = [:], logged = 0, changes = false
            if covered {
                // The reader just read these events: not read again (the common case, one seq).
                for seq in range {
                    if known[seq]?.own == true { own.insert(seq) }
                    if known[seq]?.kind == .change { changes = true }
                    versions[seq] = known[seq]?.membersVersion
                }
                logged = range.count
            } else {
                for row in try await client.allRows("""
                    SELECT seq, kind, origin IS NOT DISTINCT FROM \(origin), members_version FROM events
                    WHERE kind IN (1, 2) AND conversation_id = \(conversationID) AND seq > \(after) AND seq <= \(through)
                    """, logger: logger) {
                    let (seq, kind, mine, version) = try row.decode((UInt64, Int16, Bool, UInt64).self)
                    if mine { own.insert(seq) }
                    if kind == CommitEvent.Kind.change.rawValue { changes = true }
                    versions[seq] = version
                    logged += 1
                }
            }
            // Every seq of the range logged and none a change (the common case): no changes to read.
            let readChanges = changes || logged < Int(through - after)
            var entries: [LogEntry] = try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.conversation_id = \(conversationID) AND m.seq > \(after) AND m.seq <= \(through)
                """, logger: logger).map { row in
                var m = try Self.message(row)
                m.membersVersion = versions[m.seq] ?? 0
                return .message(m, own: own.contains(m.seq))
            }
            guard readChanges else { return entries.sorted { $0.seq < $1.seq } }
            entries += try await client.allRows("""
                SELECT \(unescaped: Self.changeColumns) \(unescaped: Self.changeJoins)
                WHERE c.conversation_id = \(conversationID) AND c.seq > \(after) AND c.seq <= \(through)
                """, logger: logger).map { row in
                var c = try Self.change(row)
                c.membersVersion = versions[c.seq] ?? 0
                return .change(c, own: own.contains(c.seq))
            }
            return entries.sorted { $0.seq < $1.seq }
        }
    }

    public func purgeEvents(olderThan cutoff: UInt64) async throws(StoreError) -> Int {
        try await perform { client, logger in
            try await client.allRows("DELETE FROM events WHERE created_at < \(cutoff) RETURNING 1", logger: logger).count
        }
    }
}
