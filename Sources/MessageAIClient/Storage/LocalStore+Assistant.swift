import Foundation
import MessageAIProtocol
import MessageAISQLite

/// The server's assistant items, cached so /actions and /decisions read the same list offline,
/// and the ASSIST_SYNC cursor (client cache schema 6; due dates as instants: 9).
extension LocalStore {
    /// Idempotent (runs on every open): a cache of any earlier version gets the tables, and a
    /// cache that already has them is left alone, whatever order schema steps were merged in.
    func createAssistantTables() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS assistant_items(
                item_id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL,
                kind INTEGER NOT NULL, text TEXT NOT NULL, who TEXT NOT NULL DEFAULT '', due TEXT NOT NULL DEFAULT '',
                sender TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0, done_by TEXT NOT NULL DEFAULT '',
                done_at INTEGER NOT NULL DEFAULT 0, rev INTEGER NOT NULL, engine TEXT NOT NULL DEFAULT '',
                engine_version TEXT NOT NULL DEFAULT '', due_at INTEGER NOT NULL DEFAULT 0,
                due_time_zone TEXT NOT NULL DEFAULT '');
            CREATE INDEX IF NOT EXISTS assistant_items_conversation ON assistant_items(conversation_id, item_id);
            CREATE TABLE IF NOT EXISTS assistant_state(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            """)
    }

    /// 8 -> 9: the resolved due date (AssistItem tags 15, 16). The cursor goes back to 0 so the
    /// next ASSIST_SYNC brings every item again, and a row of the same rev takes its due date.
    func addDueTimes() throws {
        let columns = try db.query("PRAGMA table_info(assistant_items)") { $0.string(1) }
        guard !columns.contains("due_at") else { return }
        try db.execute("""
            ALTER TABLE assistant_items ADD COLUMN due_at INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE assistant_items ADD COLUMN due_time_zone TEXT NOT NULL DEFAULT '';
            DELETE FROM assistant_state WHERE name = 'cursor';
            """)
    }

    /// Stores items, each unless the cache holds a newer rev of it; returns those that changed.
    @discardableResult
    public func upsertAssistItems(_ items: [AssistItem]) throws -> [AssistItem] {
        try db.transaction {
            var changed: [AssistItem] = []
            for i in items {
                let n = try db.run("""
                    INSERT INTO assistant_items(item_id, conversation_id, seq, kind, text, who, due, sender, done, done_by, done_at,
                        rev, engine, engine_version, due_at, due_time_zone) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                    ON CONFLICT(item_id) DO UPDATE SET done=excluded.done, done_by=excluded.done_by, done_at=excluded.done_at,
                        text=excluded.text, who=excluded.who, due=excluded.due, engine=excluded.engine,
                        engine_version=excluded.engine_version, rev=excluded.rev, due_at=excluded.due_at,
                        due_time_zone=excluded.due_time_zone
                    WHERE excluded.rev > assistant_items.rev
                       OR (excluded.rev = assistant_items.rev AND excluded.due_at <> assistant_items.due_at)
                    """, i.itemID, i.conversationID, i.seq, i.kind.rawValue, i.text, i.who, i.due, i.from, i.done, i.doneBy,
                    i.doneAt, i.rev, i.engine, i.engineVersion, i.dueAt, i.dueTimeZone)
                if n > 0 { changed.append(i) }
            }
            return changed
        }
    }

    /// Newest first, as the server lists them (`me` decides "mine").
    public func assistItems(conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind?, me: String,
                            limit: Int = 100) throws -> [AssistItem] {
        try db.query("""
            SELECT item_id, conversation_id, seq, kind, text, who, due, sender, done, done_by, done_at, rev, engine, engine_version,
                   due_at, due_time_zone
            FROM assistant_items
            WHERE (?1 = 0 OR conversation_id = ?1) AND (?2 = 0 OR kind = ?2) AND text <> ''
              AND (kind = 2 OR ?3 = 1 OR (done = 0 AND (?3 = 0 OR lower(who) = lower(?4)
                   OR (who = 'everyone' AND lower(sender) != lower(?4)))))
            ORDER BY item_id DESC LIMIT ?5
            """, conversationID ?? 0, kind?.rawValue ?? 0, filter.rawValue, me, limit) { r in
            var item = AssistItem(itemID: r.uint64(0), conversationID: r.uint64(1), seq: r.uint64(2), kind: AssistItemKind(rawValue: r.uint64(3)) ?? .action,
                       text: r.string(4), who: r.string(5), due: r.string(6), from: r.string(7), done: r.int(8) != 0,
                       doneBy: r.string(9), doneAt: r.uint64(10), rev: r.uint64(11), engine: r.string(12), engineVersion: r.string(13))
            item.dueAt = r.uint64(14); item.dueTimeZone = r.string(15)
            return item
        }
    }

    /// The done mark of each of these items the cache holds.
    public func cachedAssistDone(_ ids: [UInt64]) throws -> [UInt64: Bool] {
        var out: [UInt64: Bool] = [:]
        for id in ids { if let d = try db.queryOne("SELECT done FROM assistant_items WHERE item_id=?", id, row: { $0.int(0) != 0 }) { out[id] = d } }
        return out
    }

    public func hasAssistItems() throws -> Bool {
        try db.queryOne("SELECT EXISTS(SELECT 1 FROM assistant_items)") { $0.int(0) != 0 } ?? false
    }

    public func assistCursor() throws -> UInt64 {
        try db.queryOne("SELECT value FROM assistant_state WHERE name='cursor'") { $0.uint64(0) } ?? 0
    }

    public func setAssistCursor(_ value: UInt64) throws {
        try db.run("INSERT INTO assistant_state(name, value) VALUES('cursor', ?) ON CONFLICT(name) DO UPDATE SET value=max(value, excluded.value)", value)
    }
}
