import MessageAIProtocol
import MessageAISQLite

// The assistant's tables (schema v5, `SchemaV5`).
extension SQLiteStore: AssistantStore {
    public var assistant: AssistantStore? { self }

    static let itemColumns = """
        i.id, i.conversation_id, i.seq, i.kind, i.text, i.who, i.due, su.username, i.done,
        COALESCE(du.username, ''), i.done_at, i.rev, i.engine, i.engine_version, i.due_at, i.due_time_zone
        FROM assistant_items i JOIN users su ON su.id = i.sender_id LEFT JOIN users du ON du.id = i.done_by
        """

    static func assistItem(_ s: Statement) -> AssistItemRecord {
        var item = AssistItemRecord(itemID: s.uint64(0), conversationID: s.uint64(1), seq: s.uint64(2),
                   kind: AssistItemKind(rawValue: s.uint64(3)) ?? .action, text: s.string(4), who: s.string(5), due: s.string(6),
                   from: s.string(7), done: s.int(8) != 0, doneBy: s.string(9), doneAt: s.uint64(10), rev: s.uint64(11),
                   engine: s.string(12), engineVersion: s.string(13))
        item.dueAt = s.uint64(14); item.dueTimeZone = s.string(15)
        return item
    }

    public func insertItems(_ items: [NewAssistItem], now: UInt64) throws -> [AssistItemRecord] {
        guard !items.isEmpty else { return [] }
        return try db.transaction {
            var rev = try assistantCursor()
            var ids: [UInt64] = []
            for it in items {
                // An ask and the owner's "I'll ..." for the same work are one item: an open action
                // with the same owner and wording in the conversation is not stored twice.
                let added = try db.run("""
                    INSERT OR IGNORE INTO assistant_items (conversation_id, seq, kind, ordinal, text, who, due, sender_id, rev,
                        engine, engine_version, created_at, due_at, due_time_zone)
                    SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
                    WHERE (?3 != 1 OR NOT EXISTS (SELECT 1 FROM assistant_items WHERE conversation_id = ?1 AND kind = 1 AND done = 0
                                                  AND lower(who) = lower(?6) AND lower(text) = lower(?5)))
                      -- A message deleted before its extraction finished keeps no items; one
                      -- edited meanwhile gets them from its new text (replaceItems), not the old.
                      AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?1 AND seq = ?2
                                      AND (deleted = 1 OR edited_at > 0))
                    """, it.conversationID, it.seq, it.kind.rawValue, it.ordinal, it.text, it.who, it.due, it.senderID, rev + 1,
                    it.engine, it.engineVersion, now, it.dueAt, it.dueTimeZone)
                if added > 0 { rev += 1; ids.append(db.lastInsertRowID) }
            }
            return try ids.compactMap { id in try db.queryOne("SELECT \(Self.itemColumns) WHERE i.id = ?", id) { Self.assistItem($0) } }
        }
    }

    public func items(userID: UInt64, conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind?, limit: Int) throws -> [AssistItemRecord] {
        // Every value is bound; the optional ones as "0 means any".
        try db.query("""
            SELECT \(Self.itemColumns)
            WHERE i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?1)
              AND i.text <> ''
              AND (?2 = 0 OR i.conversation_id = ?2)
              AND (?3 = 0 OR i.kind = ?3)
              AND (i.kind = 2 OR ?4 = 1 OR (i.done = 0 AND (?4 = 0
                   OR lower(i.who) = (SELECT lower(username) FROM users WHERE id = ?1)
                   OR (i.who = 'everyone' AND i.sender_id != ?1))))
            ORDER BY i.id DESC LIMIT ?5
            """, userID, conversationID ?? 0, kind?.rawValue ?? 0, filter.rawValue, Self.clamp(limit, max: 500)) { Self.assistItem($0) }
    }

    public func itemsChanged(userID: UInt64, sinceRev: UInt64, limit: Int) throws -> [AssistItemRecord] {
        try db.query("""
            SELECT \(Self.itemColumns)
            WHERE i.rev > ?2 AND i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?1)
            ORDER BY i.rev LIMIT ?3
            """, userID, sinceRev, Self.clamp(limit, max: 500)) { Self.assistItem($0) }
    }

    public func item(id: UInt64, visibleTo userID: UInt64) throws -> AssistItemRecord? {
        try db.queryOne("""
            SELECT \(Self.itemColumns)
            WHERE i.id = ?1 AND i.text <> '' AND i.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?2)
            """, id, userID) { Self.assistItem($0) }
    }

    public func items(conversationID: UInt64, seq: UInt64) throws -> [AssistItemRecord] {
        try db.query("SELECT \(Self.itemColumns) WHERE i.conversation_id = ? AND i.seq = ? ORDER BY i.id", conversationID, seq) {
            Self.assistItem($0)
        }
    }

    /// One query per id: on one node nothing calls it with many (only a reader of the event log does).
    public func items(ids: [UInt64]) throws -> [AssistItemRecord] {
        try ids.sorted().compactMap { id in
            try db.queryOne("SELECT \(Self.itemColumns) WHERE i.id = ?", id) { Self.assistItem($0) }
        }
    }

    public func setItemDone(id: UInt64, by userID: UInt64, done: Bool, now: UInt64) throws -> (item: AssistItemRecord, changed: Bool) {
        try db.transaction {
            guard let current = try item(id: id, visibleTo: userID) else { throw StoreError.notFound }
            guard current.done != done else { return (current, false) }
            let rev = try assistantCursor() + 1
            try db.run("UPDATE assistant_items SET done = ?, done_by = ?, done_at = ?, rev = ? WHERE id = ?",
                       done, done ? userID : nil, done ? now : 0, rev, id)
            guard let changed = try item(id: id, visibleTo: userID) else { throw StoreError.notFound }
            return (changed, true)
        }
    }

    public func assistantCursor() throws -> UInt64 {
        try db.queryOne("SELECT COALESCE(MAX(rev), 0) FROM assistant_items") { $0.uint64(0) } ?? 0
    }

    public func cachedSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String) throws -> [UInt8]? {
        try db.queryOne("""
            SELECT answer FROM assistant_summaries
            WHERE conversation_id = ? AND from_seq = ? AND to_seq = ? AND engine = ? AND engine_version = ?
            """, conversationID, fromSeq, toSeq, engine, engineVersion) { $0.blob(0) }
    }

    public func cacheSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String,
                             answer: [UInt8], now: UInt64) throws {
        try db.run("""
            INSERT OR REPLACE INTO assistant_summaries (conversation_id, from_seq, to_seq, engine, engine_version, answer, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, conversationID, fromSeq, toSeq, engine, engineVersion, answer, now)
    }

    public func assistSwitch(conversationID: UInt64) throws -> AssistSwitch {
        try db.queryOne("""
            SELECT s.provider_off, COALESCE(u.username, '') FROM assistant_settings s LEFT JOIN users u ON u.id = s.changed_by
            WHERE s.conversation_id = ?
            """, conversationID) { AssistSwitch(providerOff: $0.int(0) != 0, changedBy: $0.string(1)) } ?? AssistSwitch()
    }

    public func setProviderOff(conversationID: UInt64, by userID: UInt64, off: Bool, now: UInt64) throws {
        try db.run("""
            INSERT INTO assistant_settings (conversation_id, provider_off, changed_by, changed_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (conversation_id) DO UPDATE SET provider_off = excluded.provider_off,
                changed_by = excluded.changed_by, changed_at = excluded.changed_at
            """, conversationID, off, userID, now)
    }

    public func providerRequests(userID: UInt64, day: UInt64) throws -> Int {
        try db.queryOne("SELECT requests FROM assistant_usage WHERE user_id = ? AND day = ?", userID, day) { $0.int(0) } ?? 0
    }

    public func countProviderRequest(userID: UInt64, day: UInt64) throws {
        try db.run("""
            INSERT INTO assistant_usage (user_id, day, requests) VALUES (?, ?, 1)
            ON CONFLICT (user_id, day) DO UPDATE SET requests = requests + 1
            """, userID, day)
    }
}
