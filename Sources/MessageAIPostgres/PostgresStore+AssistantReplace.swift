import MessageAIVocabulary
import MessageAIStore
import Logging
import PostgresNIO

/// Replacing a message's items, re-announcing a group's items, and withdrawing a deleted
/// message's items (SQLiteStore+AssistantReplace.swift, SQLiteStore+Changes.swift), each in
/// one transaction that holds the rev counter's lock (PostgresStore+Assistant.swift).
extension PostgresStore {
    /// The items of message `seq` become `replacement`. An item still there (same kind, owner
    /// and wording, case and spaces aside) keeps its id and done mark and takes the new due
    /// date, place and engine; the rest are withdrawn (text emptied) and new ones stored. Every
    /// changed row gets a new rev; unchanged rows keep theirs. Nothing happens to a deleted
    /// message. Returns the rows that changed, withdrawn ones included.
    public func replaceItems(conversationID cid: UInt64, seq: UInt64, with replacement: [NewAssistItem],
                             now: UInt64) async throws(StoreError) -> [AssistItemRecord] {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                var rev = try await Self.lockRevs(db, logger: logger)
                let deleted = try await db.firstRow("SELECT deleted FROM messages WHERE conversation_id = \(cid) AND seq = \(seq)",
                                                    logger: logger)?.decode(Bool.self)
                guard deleted == false else { return [] }
                let old = try await db.allRows("""
                    SELECT \(unescaped: Self.itemColumns) WHERE i.conversation_id = \(cid) AND i.seq = \(seq) AND i.text <> ''
                    ORDER BY i.id
                    """, logger: logger).map(Self.assistItem)
                var unmatched = old, keep: [(old: AssistItemRecord, new: NewAssistItem)] = [], fresh: [NewAssistItem] = []
                for it in replacement {
                    if let i = unmatched.firstIndex(where: { Self.sameItem($0, it) }) {
                        keep.append((unmatched[i], it))
                        unmatched.remove(at: i)
                    } else {
                        fresh.append(it)
                    }
                }
                var changed: [UInt64] = []
                // Places are unique per message: every row that moves or goes first leaves its
                // place (a negative one, its own id's), then the kept ones take their new places.
                for o in unmatched {
                    rev += 1
                    try await db.query("""
                        UPDATE assistant_items SET text = '', who = '', due = '', due_at = 0, due_time_zone = '', ordinal = -id,
                            rev = \(rev) WHERE id = \(o.itemID)
                        """, logger: logger)
                    changed.append(o.itemID)
                }
                try await db.query("UPDATE assistant_items SET ordinal = -id WHERE conversation_id = \(cid) AND seq = \(seq) AND text = ''",
                                   logger: logger)
                let keptIDs = keep.map(\.old.itemID)
                try await db.query("UPDATE assistant_items SET ordinal = -id WHERE id = ANY(\(keptIDs)::BIGINT[])", logger: logger)
                for (o, n) in keep {
                    if o.text != n.text || o.who != n.who || o.due != n.due || o.engine != n.engine || o.engineVersion != n.engineVersion
                        || o.dueAt != n.dueAt || o.dueTimeZone != n.dueTimeZone {
                        rev += 1
                        try await db.query("""
                            UPDATE assistant_items SET text = \(n.text), who = \(n.who), due = \(n.due), ordinal = \(n.ordinal),
                                engine = \(n.engine), engine_version = \(n.engineVersion), rev = \(rev), due_at = \(n.dueAt),
                                due_time_zone = \(n.dueTimeZone)
                            WHERE id = \(o.itemID)
                            """, logger: logger)
                        changed.append(o.itemID)
                    } else {
                        try await db.query("UPDATE assistant_items SET ordinal = \(n.ordinal) WHERE id = \(o.itemID)", logger: logger)
                    }
                }
                for it in fresh {
                    // As in insertItems: an open action another message already gave the same
                    // owner in the same words is not stored twice.
                    guard let row = try await db.firstRow("""
                        INSERT INTO assistant_items (conversation_id, seq, kind, ordinal, text, who, due, sender_id, rev,
                            engine, engine_version, created_at, due_at, due_time_zone)
                        SELECT \(cid), \(seq), \(it.kind.rawValue), \(it.ordinal), \(it.text), \(it.who), \(it.due), \(it.senderID),
                               \(rev + 1), \(it.engine), \(it.engineVersion), \(now), \(it.dueAt), \(it.dueTimeZone)
                        WHERE \(it.kind.rawValue) <> 1
                           OR NOT EXISTS (SELECT 1 FROM assistant_items WHERE conversation_id = \(cid) AND seq <> \(seq) AND kind = 1
                                          AND NOT done AND lower(who) = lower(\(it.who)) AND lower(text) = lower(\(it.text)))
                        RETURNING id
                        """, logger: logger) else { continue }
                    rev += 1
                    changed.append(try row.decode(UInt64.self))
                }
                if !changed.isEmpty { try await Self.storeRevs(db, rev, logger: logger) }
                let rows = try await Self.items(db, ids: changed, logger: logger)
                // In the order SQLite answers: withdrawn, then kept, then new.
                return changed.compactMap { id in rows.first { $0.itemID == id } }
            }
        }
    }

    /// Same kind, owner and wording (case and runs of spaces aside): the edit kept the item.
    static func sameItem(_ old: AssistItemRecord, _ new: NewAssistItem) -> Bool {
        func norm(_ s: String) -> String { s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return old.kind == new.kind && norm(old.text) == norm(new.text) && old.who.lowercased() == new.who.lowercased()
    }

    /// A new rev for every live item of the conversation (a member was added, and their
    /// devices' cursors may be past the items' revs); returns them, oldest first.
    public func reannounceItems(conversationID cid: UInt64) async throws(StoreError) -> [AssistItemRecord] {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                let rev = try await Self.lockRevs(db, logger: logger)
                // Numbered in id order from the counter, in one statement.
                guard let row = try await db.firstRow("""
                    WITH live AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM assistant_items
                                  WHERE conversation_id = \(cid) AND text <> ''),
                         moved AS (UPDATE assistant_items i SET rev = \(rev) + live.n FROM live WHERE i.id = live.id RETURNING i.id)
                    SELECT count(*) FROM moved
                    """, logger: logger) else { return [] }
                let count = try row.decode(UInt64.self)
                guard count > 0 else { return [] }
                try await Self.storeRevs(db, rev + count, logger: logger)
                return try await db.allRows("""
                    SELECT \(unescaped: Self.itemColumns) WHERE i.conversation_id = \(cid) AND i.text <> '' ORDER BY i.id
                    """, logger: logger).map(Self.assistItem)
            }
        }
    }

    /// In a delete's transaction: the message's items are withdrawn (text, owner and due
    /// emptied, a new rev each, so every device drops them), and cached summaries over the
    /// message are dropped. The counter's lock is taken before the items are read, so an
    /// extraction racing the delete either committed first (its items are withdrawn here) or
    /// runs after and finds the message deleted.
    static func withdrawItems(_ db: PostgresConnection, conversationID cid: UInt64, seq: UInt64, logger: Logger) async throws {
        let rev = try await lockRevs(db, logger: logger)
        if let row = try await db.firstRow("""
            WITH live AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM assistant_items
                          WHERE conversation_id = \(cid) AND seq = \(seq) AND text <> ''),
                 gone AS (UPDATE assistant_items i SET text = '', who = '', due = '', rev = \(rev) + live.n
                          FROM live WHERE i.id = live.id RETURNING i.id)
            SELECT count(*) FROM gone
            """, logger: logger), case let count = try row.decode(UInt64.self), count > 0 {
            try await storeRevs(db, rev + count, logger: logger)
        }
        try await dropSummaries(db, conversationID: cid, over: seq, logger: logger)
    }

    /// A summary over a message's old text is not served again (an edit, a delete).
    static func dropSummaries(_ db: PostgresConnection, conversationID cid: UInt64, over seq: UInt64, logger: Logger) async throws {
        try await db.query("""
            DELETE FROM assistant_summaries WHERE conversation_id = \(cid) AND from_seq <= \(seq) AND to_seq >= \(seq)
            """, logger: logger)
    }
}
