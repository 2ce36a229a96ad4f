import MessageAIVocabulary
import MessageAIStore
import Logging
import PostgresNIO

/// The assistant's items (SQLiteStore+Assistant.swift), with revs from the counter row of
/// schema v5 (see PostgresSchema+V5.swift): every transaction that gives out revs first takes
/// the counter's row lock (`lockRevs`), numbers its rows from the value it read, and writes the
/// last one back before committing. The writer of rev N+1 so starts only after rev N
/// committed: a reader following `itemsChanged` from its cursor never sees a rev before the
/// ones below it, and a rolled-back transaction leaves no gap.
extension PostgresStore {
    static let itemColumns = """
        i.id, i.conversation_id, i.seq, i.kind, i.text, i.who, i.due, su.username, i.done,
        COALESCE(du.username, ''), i.done_at, i.rev, i.engine, i.engine_version, i.due_at, i.due_time_zone
        FROM assistant_items i JOIN users su ON su.id = i.sender_id LEFT JOIN users du ON du.id = i.done_by
        """

    static func assistItem(_ row: PostgresRow) throws -> AssistItemRecord {
        let (id, cid, seq, kind, text, who, due, from, done, doneBy, doneAt, rev, engine, version, dueAt, zone) =
            try row.decode((UInt64, UInt64, UInt64, UInt64, String, String, String, String, Bool, String, UInt64, UInt64,
                            String, String, UInt64, String).self)
        var item = AssistItemRecord(itemID: id, conversationID: cid, seq: seq, kind: AssistItemKind(rawValue: kind) ?? .action,
                                    text: text, who: who, due: due, from: from, done: done, doneBy: doneBy, doneAt: doneAt, rev: rev,
                                    engine: engine, engineVersion: version)
        item.dueAt = dueAt; item.dueTimeZone = zone
        return item
    }

    /// Takes the rev counter's row lock (held to the commit) and returns the last rev given out.
    static func lockRevs(_ db: PostgresConnection, logger: Logger) async throws -> UInt64 {
        guard let row = try await db.firstRow("UPDATE assistant_rev SET rev = rev WHERE id = 1 RETURNING rev", logger: logger) else {
            throw PostgresStoreError.failed(sqlState: nil, message: "assistant_rev has no row")
        }
        return try row.decode(UInt64.self)
    }

    static func storeRevs(_ db: PostgresConnection, _ rev: UInt64, logger: Logger) async throws {
        try await db.query("UPDATE assistant_rev SET rev = \(rev) WHERE id = 1", logger: logger)
    }

    static func items(_ db: PostgresConnection, ids: [UInt64], logger: Logger) async throws -> [AssistItemRecord] {
        guard !ids.isEmpty else { return [] }
        return try await db.allRows("SELECT \(unescaped: itemColumns) WHERE i.id = ANY(\(ids)::BIGINT[]) ORDER BY i.id",
                                    logger: logger).map(assistItem)
    }

    /// Stores the items in one transaction, each with the next rev. Skipped: an item already
    /// stored for the same message and place; an action the same owner already has open in the
    /// conversation with the same words (an ask, then "I'll do it"); items of a message
    /// deleted, or edited, before its extraction finished. Returns the items stored now.
    public func insertItems(_ items: [NewAssistItem], now: UInt64) async throws(StoreError) -> [AssistItemRecord] {
        guard !items.isEmpty else { return [] }
        return try await perform { client, logger in
            do {
                return try await Self.insertItems(client, items, now: now, logger: logger)
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound  // no such conversation or sender: nothing stored
            }
        }
    }

    private static func insertItems(_ client: PostgresClient, _ items: [NewAssistItem], now: UInt64,
                                    logger: Logger) async throws -> [AssistItemRecord] {
        try await client.withTransaction(logger: logger) { db in
            try await insertItems(db, items, now: now, logger: logger)
        }
    }

    /// The statements of `insertItems`, inside the caller's transaction (an extraction job's too).
    static func insertItems(_ db: PostgresConnection, _ items: [NewAssistItem], now: UInt64,
                            logger: Logger) async throws -> [AssistItemRecord] {
        var rev = try await Self.lockRevs(db, logger: logger)
        var ids: [UInt64] = []
        for it in items {
            guard let row = try await db.firstRow("""
                INSERT INTO assistant_items (conversation_id, seq, kind, ordinal, text, who, due, sender_id, rev,
                    engine, engine_version, created_at, due_at, due_time_zone)
                SELECT \(it.conversationID), \(it.seq), \(it.kind.rawValue), \(it.ordinal), \(it.text), \(it.who), \(it.due),
                       \(it.senderID), \(rev + 1), \(it.engine), \(it.engineVersion), \(now), \(it.dueAt), \(it.dueTimeZone)
                WHERE (\(it.kind.rawValue) <> 1
                       OR NOT EXISTS (SELECT 1 FROM assistant_items WHERE conversation_id = \(it.conversationID) AND kind = 1
                                      AND NOT done AND lower(who) = lower(\(it.who)) AND lower(text) = lower(\(it.text))))
                  AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = \(it.conversationID) AND seq = \(it.seq)
                                  AND (deleted OR edited_at > 0))
                ON CONFLICT (conversation_id, seq, kind, ordinal) DO NOTHING
                RETURNING id
                """, logger: logger) else { continue }
            rev += 1
            ids.append(try row.decode(UInt64.self))
        }
        if !ids.isEmpty { try await Self.storeRevs(db, rev, logger: logger) }
        return try await Self.items(db, ids: ids, logger: logger)
    }

    /// Newest first, in the user's conversations (or one of them), without withdrawn items.
    public func items(userID: UInt64, conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind?,
                      limit: Int) async throws(StoreError) -> [AssistItemRecord] {
        let (cid, kindValue, filterValue) = (conversationID ?? 0, kind?.rawValue ?? 0, filter.rawValue)
        let limit = Self.bounded(limit, max: 500)
        return try await perform { client, logger in
            // Every value is bound; the optional ones as "0 means any".
            try await client.allRows("""
                SELECT \(unescaped: Self.itemColumns)
                WHERE i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = \(userID))
                  AND i.text <> ''
                  AND (\(cid) = 0 OR i.conversation_id = \(cid))
                  AND (\(kindValue) = 0 OR i.kind = \(kindValue))
                  AND (i.kind = 2 OR \(filterValue) = 1 OR (NOT i.done AND (\(filterValue) = 0
                       OR lower(i.who) = (SELECT lower(username) FROM users WHERE id = \(userID))
                       OR (i.who = 'everyone' AND i.sender_id <> \(userID)))))
                ORDER BY i.id DESC LIMIT \(limit)
                """, logger: logger).map(Self.assistItem)
        }
    }

    /// Items of the user's conversations with rev > `sinceRev`, ascending by rev (ASSIST_SYNC).
    public func itemsChanged(userID: UInt64, sinceRev: UInt64, limit: Int) async throws(StoreError) -> [AssistItemRecord] {
        let limit = Self.bounded(limit, max: 500)
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.itemColumns)
                WHERE i.rev > \(sinceRev) AND i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = \(userID))
                ORDER BY i.rev LIMIT \(limit)
                """, logger: logger).map(Self.assistItem)
        }
    }

    /// The item if the user is a member of its conversation and it was not withdrawn.
    public func item(id: UInt64, visibleTo userID: UInt64) async throws(StoreError) -> AssistItemRecord? {
        try await perform { client, logger in
            try await client.firstRow(Self.visibleItem(id: id, userID: userID), logger: logger).map(Self.assistItem)
        }
    }

    static func item(_ db: PostgresConnection, id: UInt64, visibleTo userID: UInt64, logger: Logger) async throws -> AssistItemRecord? {
        try await db.firstRow(visibleItem(id: id, userID: userID), logger: logger).map(assistItem)
    }

    private static func visibleItem(id: UInt64, userID: UInt64) -> PostgresQuery {
        """
        SELECT \(unescaped: itemColumns)
        WHERE i.id = \(id) AND i.text <> ''
          AND i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = \(userID))
        """
    }

    /// The items extracted from one message, withdrawn ones included, oldest first.
    public func items(conversationID: UInt64, seq: UInt64) async throws(StoreError) -> [AssistItemRecord] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.itemColumns) WHERE i.conversation_id = \(conversationID) AND i.seq = \(seq) ORDER BY i.id
                """, logger: logger).map(Self.assistItem)
        }
    }

    /// The items as they are now, withdrawn ones included, by id (kind 10 of the event log).
    public func items(ids: [UInt64]) async throws(StoreError) -> [AssistItemRecord] {
        guard !ids.isEmpty else { return [] }
        return try await perform { client, logger in
            try await client.allRows("SELECT \(unescaped: Self.itemColumns) WHERE i.id = ANY(\(ids)::BIGINT[]) ORDER BY i.id",
                                     logger: logger).map(Self.assistItem)
        }
    }

    /// Marks the item done by the user (or open again); a new rev only when it changed.
    /// `notFound` when the user cannot see it.
    public func setItemDone(id: UInt64, by userID: UInt64, done: Bool,
                            now: UInt64) async throws(StoreError) -> (item: AssistItemRecord, changed: Bool) {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                // The lock first: two nodes marking the same item read it one after the other.
                let rev = try await Self.lockRevs(db, logger: logger) + 1
                guard let current = try await Self.item(db, id: id, visibleTo: userID, logger: logger) else {
                    throw PostgresStoreError.notFound
                }
                guard current.done != done else { return (current, false) }
                try await db.query("""
                    UPDATE assistant_items SET done = \(done), done_by = \(done ? userID : nil), done_at = \(done ? now : 0), rev = \(rev)
                    WHERE id = \(id)
                    """, logger: logger)
                try await Self.storeRevs(db, rev, logger: logger)
                guard let changed = try await Self.item(db, id: id, visibleTo: userID, logger: logger) else {
                    throw PostgresStoreError.notFound
                }
                return (changed, true)
            }
        }
    }

    /// The highest rev given out and committed (0: none).
    public func assistantCursor() async throws(StoreError) -> UInt64 {
        try await perform { client, logger in
            try await client.firstRow("SELECT rev FROM assistant_rev WHERE id = 1", logger: logger)?.decode(UInt64.self) ?? 0
        }
    }
}
