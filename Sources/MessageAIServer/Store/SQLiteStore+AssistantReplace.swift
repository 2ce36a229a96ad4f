import MessageAIProtocol
import MessageAISQLite

// Replacing a message's items (after an edit, or the language model's second opinion) and
// re-announcing a group's items to members added later.
extension SQLiteStore {
    /// The items of message `seq` become `items` (all of that message; engine and place as
    /// given), in one transaction. An item still there is the same item when its kind, owner
    /// and wording match (case and spaces aside): it keeps its id and its done mark, and takes
    /// the new due date, place and engine. The rest are withdrawn (text emptied, like a
    /// delete's) and the new ones stored. Every changed row gets a new rev; unchanged rows keep
    /// theirs. Cached summaries are left alone (an edit drops those over its message itself; the
    /// model's second opinion changes no text). Nothing happens to a deleted message. Returns
    /// the rows that changed, withdrawn ones included.
    public func replaceItems(conversationID cid: UInt64, seq: UInt64, with replacement: [NewAssistItem], now: UInt64) throws -> [AssistItemRecord] {
        try db.transaction {
            let deleted = try db.queryOne("SELECT deleted FROM messages WHERE conversation_id = ? AND seq = ?", cid, seq) { $0.int(0) != 0 }
            guard deleted == false else { return [] }
            let old = try items(conversationID: cid, seq: seq).filter { !$0.text.isEmpty }
            var rev = try assistantCursor()
            var changed: [UInt64] = []
            var unmatched = old
            var keep: [(old: AssistItemRecord, new: NewAssistItem)] = []
            var fresh: [NewAssistItem] = []
            for it in replacement {
                if let i = unmatched.firstIndex(where: { Self.sameItem($0, it) }) {
                    keep.append((unmatched[i], it))
                    unmatched.remove(at: i)
                } else {
                    fresh.append(it)
                }
            }
            // Places are unique per message: every row that moves or goes first leaves its place
            // (a negative one, its own id's), then the kept ones take their new places.
            for o in unmatched {
                rev += 1
                try db.run("UPDATE assistant_items SET text = '', who = '', due = '', due_at = 0, due_time_zone = '', ordinal = -id, rev = ? WHERE id = ?", rev, o.itemID)
                changed.append(o.itemID)
            }
            try db.run("UPDATE assistant_items SET ordinal = -id WHERE conversation_id = ? AND seq = ? AND text = ''", cid, seq)
            for k in keep { try db.run("UPDATE assistant_items SET ordinal = -id WHERE id = ?", k.old.itemID) }
            for k in keep {
                let o = k.old, n = k.new
                if o.text != n.text || o.who != n.who || o.due != n.due || o.engine != n.engine || o.engineVersion != n.engineVersion
                    || o.dueAt != n.dueAt || o.dueTimeZone != n.dueTimeZone {
                    rev += 1
                    try db.run("""
                        UPDATE assistant_items SET text = ?, who = ?, due = ?, ordinal = ?, engine = ?, engine_version = ?, rev = ?,
                            due_at = ?, due_time_zone = ?
                        WHERE id = ?
                        """, n.text, n.who, n.due, n.ordinal, n.engine, n.engineVersion, rev, n.dueAt, n.dueTimeZone, o.itemID)
                    changed.append(o.itemID)
                } else {
                    try db.run("UPDATE assistant_items SET ordinal = ? WHERE id = ?", n.ordinal, o.itemID)
                }
            }
            for it in fresh {
                // As in insertItems: an open action another message already gave the same owner
                // in the same words is not stored twice.
                let added = try db.run("""
                    INSERT INTO assistant_items (conversation_id, seq, kind, ordinal, text, who, due, sender_id, rev,
                        engine, engine_version, created_at, due_at, due_time_zone)
                    SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
                    WHERE ?3 != 1 OR NOT EXISTS (SELECT 1 FROM assistant_items WHERE conversation_id = ?1 AND seq <> ?2 AND kind = 1
                                                 AND done = 0 AND lower(who) = lower(?6) AND lower(text) = lower(?5))
                    """, cid, seq, it.kind.rawValue, it.ordinal, it.text, it.who, it.due, it.senderID, rev + 1,
                    it.engine, it.engineVersion, now, it.dueAt, it.dueTimeZone)
                if added > 0 { rev += 1; changed.append(db.lastInsertRowID) }
            }
            return try changed.compactMap { id in try db.queryOne("SELECT \(Self.itemColumns) WHERE i.id = ?", id) { Self.assistItem($0) } }
        }
    }

    /// Same kind, owner and wording (case and runs of spaces aside): the edit kept the item.
    static func sameItem(_ old: AssistItemRecord, _ new: NewAssistItem) -> Bool {
        func norm(_ s: String) -> String { s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return old.kind == new.kind && norm(old.text) == norm(new.text) && old.who.lowercased() == new.who.lowercased()
    }

    /// Gives every live item of the conversation a new rev, so a member added later gets them
    /// all at their devices' next ASSIST_SYNC whatever cursor those hold (the whole history is
    /// theirs: PROTOCOL.md, "Groups"). Returns the items, oldest first.
    public func reannounceItems(conversationID cid: UInt64) throws -> [AssistItemRecord] {
        try db.transaction {
            let ids = try db.query("SELECT id FROM assistant_items WHERE conversation_id = ? AND text <> '' ORDER BY id", cid) { $0.uint64(0) }
            var rev = try assistantCursor()
            for id in ids {
                rev += 1
                try db.run("UPDATE assistant_items SET rev = ? WHERE id = ?", rev, id)
            }
            return try db.query("SELECT \(Self.itemColumns) WHERE i.conversation_id = ? AND i.text <> '' ORDER BY i.id", cid) {
                Self.assistItem($0)
            }
        }
    }
}
