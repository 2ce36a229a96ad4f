import Foundation
import MessageAISQLite
import MessageAIProtocol

/// Replies, reactions, edits and deletes in the local cache.
///
/// A message row holds its current state (edited text, deleted flag, the seq it answers);
/// `reactions` holds who reacted with what; `changes` records which change seqs were applied,
/// so a change arriving twice (push and sync) is applied once and SYNC asks from past them.
extension LocalStore {
    /// Idempotent, whatever order the cache's other steps ran in.
    func migrateToMessageChanges() throws {
        let columns = try db.query("PRAGMA table_info(messages)") { $0.string(1) }
        for (name, type) in [("reply_to", "INTEGER NOT NULL DEFAULT 0"), ("edited_at", "INTEGER NOT NULL DEFAULT 0"),
                             ("deleted", "INTEGER NOT NULL DEFAULT 0")] where !columns.contains(name) {
            try db.execute("ALTER TABLE messages ADD COLUMN \(name) \(type)")
        }
        try db.execute("""
            CREATE TABLE IF NOT EXISTS reactions(
                conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, user_id INTEGER NOT NULL,
                username TEXT NOT NULL, emoji TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY(conversation_id, seq, user_id, emoji));
            CREATE TABLE IF NOT EXISTS changes(
                conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(conversation_id, seq));
            """)
    }

    /// The state a server copy of a message carries (history, sync, search), over what is cached.
    func storeState(of m: ChatMessage) throws {
        if m.replyTo != 0 || m.editedAt != 0 || m.deleted {
            try db.run("UPDATE messages SET reply_to=?, edited_at=?, deleted=?, text=CASE WHEN ? THEN '' ELSE ? END WHERE conversation_id=? AND seq=?",
                       m.replyTo, m.editedAt, m.deleted, m.deleted, LocalStore.shownText(m), m.conversationID, m.seq)
        }
        try db.run("DELETE FROM reactions WHERE conversation_id=? AND seq=?", m.conversationID, m.seq)
        for (i, r) in m.reactions.enumerated() {
            try db.run("INSERT OR IGNORE INTO reactions VALUES(?,?,?,?,?,?)", m.conversationID, m.seq, r.userID, r.username, r.emoji, i)
        }
    }

    /// Applies a change once; false when it was applied before (or its message is not cached,
    /// in which case the message arrives later in its current state).
    @discardableResult
    public func apply(_ c: MessageChange) throws -> Bool {
        let applied: Bool = try db.transaction {
            guard try db.run("INSERT OR IGNORE INTO changes VALUES(?,?)", c.conversationID, c.seq) > 0 else { return false }
            let (cid, target) = (c.conversationID, c.targetSeq)
            switch c.changeAction {
            case .react:
                try db.run("INSERT OR IGNORE INTO reactions VALUES(?,?,?,?,?,?)", cid, target, c.actorID, c.actorUsername, c.emoji, c.seq)
            case .unreact:
                try db.run("DELETE FROM reactions WHERE conversation_id=? AND seq=? AND user_id=? AND emoji=?", cid, target, c.actorID, c.emoji)
            case .edit:
                try db.run("UPDATE messages SET text=?, edited_at=? WHERE conversation_id=? AND seq=? AND deleted=0",
                           c.text, c.serverTime, cid, target)
            case .delete:
                try db.run("UPDATE messages SET text='', deleted=1 WHERE conversation_id=? AND seq=?", cid, target)
                try db.run("DELETE FROM attachments WHERE conversation_id=? AND seq=?", cid, target)
                // Its assistant items go with it (the server withdraws them too).
                try db.run("UPDATE assistant_items SET text='', who='', due='' WHERE conversation_id=? AND seq=?", cid, target)
                try db.run("DELETE FROM reactions WHERE conversation_id=? AND seq=?", cid, target)
            case nil:
                break
            }
            return true
        }
        if applied, c.changeAction == .delete { try scrubWAL() }
        return applied
    }

    /// The search index still holds a deleted text's words in older segments until they are
    /// merged, and the WAL holds page images with the text; merging the index and restarting
    /// the WAL removes both (secure_delete zeroes the freed pages).
    func scrubWAL() throws {
        try db.execute("INSERT INTO messages_fts(messages_fts) VALUES('optimize')")
        _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    }

    /// Who reacted with what, in the order they reacted.
    public func reactions(in conversationID: UInt64, seq: UInt64) throws -> [(emoji: String, username: String, userID: UInt64)] {
        try db.query("SELECT emoji, username, user_id FROM reactions WHERE conversation_id=? AND seq=? ORDER BY position, rowid",
                     conversationID, seq) { (emoji: $0.string(0), username: $0.string(1), userID: $0.uint64(2)) }
    }

    /// "👍 3  🎉 1": each emoji once, in the order first used, with its count.
    public func reactionSummary(in conversationID: UInt64, seq: UInt64) throws -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for r in try reactions(in: conversationID, seq: seq) {
            if counts[r.emoji] == nil { order.append(r.emoji) }
            counts[r.emoji, default: 0] += 1
        }
        return order.map { "\($0) \(counts[$0]!)" }.joined(separator: "  ")
    }

    public func hasReaction(in conversationID: UInt64, seq: UInt64, emoji: String) throws -> Bool {
        try !db.query("SELECT 1 FROM reactions WHERE conversation_id=? AND seq=? AND user_id=? AND emoji=?",
                      conversationID, seq, userID, emoji) { $0.int64(0) }.isEmpty
    }

    /// The highest change seq applied per conversation (part of what SYNC sends).
    func lastChangeSeqs() throws -> [UInt64: UInt64] {
        var out: [UInt64: UInt64] = [:]
        _ = try db.query("SELECT conversation_id, max(seq) FROM changes GROUP BY conversation_id") { out[$0.uint64(0)] = $0.uint64(1) }
        return out
    }
}
