import Foundation
import MessageAISQLite

/// /find in the cache: an FTS5 index of the text cut by `search_words()` (SearchWords) with
/// the server's tokenizer, queried with the server's query builder (`FullTextQuery`), so a search offline finds what it finds online (words in
/// any order, case and accents folded, the last word as a prefix).
extension LocalStore {
    /// Schema step 2 -> 3 (and 7 -> 8, after `dropSearchIndex`), idempotent (it may run again after another branch's step): the
    /// index keeps its own copy of the text keyed by (conversation_id, seq), not the messages
    /// table's rowid, which a VACUUM may renumber. Triggers keep it in step with every insert,
    /// edit and delete; a cache from before is indexed once here.
    func addSearchIndex() throws {
        let exists = try !db.query("SELECT 1 FROM sqlite_master WHERE type='table' AND name='messages_fts'") { $0.int(0) }.isEmpty
        if !exists {
            try db.execute("""
                CREATE VIRTUAL TABLE messages_fts USING fts5(
                    text, conversation_id UNINDEXED, seq UNINDEXED, tokenize='\(FullTextQuery.tokenizer)');
                INSERT INTO messages_fts(text, conversation_id, seq) SELECT search_words(text), conversation_id, seq FROM messages;
                """)
        }
        try db.execute("""
            CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
                INSERT INTO messages_fts(text, conversation_id, seq) VALUES (search_words(new.text), new.conversation_id, new.seq);
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_update AFTER UPDATE OF text ON messages BEGIN
                UPDATE messages_fts SET text = search_words(new.text) WHERE conversation_id = old.conversation_id AND seq = old.seq;
            END;
            CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages BEGIN
                DELETE FROM messages_fts WHERE conversation_id = old.conversation_id AND seq = old.seq;
            END;
            """)
    }

    /// Schema step 7 -> 8: the index held the text as typed, so a word inside CJK text could
    /// not be found; it is dropped with its triggers and built again by `addSearchIndex`.
    func dropSearchIndex() throws {
        try db.execute("""
            DROP TRIGGER IF EXISTS messages_fts_insert;
            DROP TRIGGER IF EXISTS messages_fts_update;
            DROP TRIGGER IF EXISTS messages_fts_delete;
            DROP TABLE IF EXISTS messages_fts;
            """)
    }

    /// Messages matching `query` by the server's rules, newest first.
    public func search(_ query: String, limit: Int = 50) throws -> [StoredMessage] {
        guard let words = FullTextQuery.match(query) else { return [] }
        let columns = LocalStore.readColumns.split(separator: ",").map { "m." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        return try db.query("""
            SELECT \(columns) FROM messages_fts f
            JOIN messages m ON m.conversation_id = f.conversation_id AND m.seq = f.seq
            WHERE messages_fts MATCH ? ORDER BY m.server_time DESC, m.seq DESC LIMIT ?
            """, "text : (\(words))", limit, row: LocalStore.row)
    }

    /// The outbox entries matching `query` by the same rules, newest first. The outbox is a
    /// file, not a table: its few entries go through a temporary index of this connection.
    public func searchQueued(_ query: String, in entries: [OutboxEntry]) throws -> [OutboxEntry] {
        guard let words = FullTextQuery.match(query), !entries.isEmpty else { return [] }
        try db.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.queued_fts USING fts5(text, position UNINDEXED, tokenize='\(FullTextQuery.tokenizer)');
            DELETE FROM temp.queued_fts;
            """)
        for (i, e) in entries.enumerated() {
            try db.run("INSERT INTO temp.queued_fts(text, position) VALUES(search_words(?), ?)", e.text, i)
        }
        let hits = try db.query("SELECT position FROM temp.queued_fts WHERE queued_fts MATCH ?", "text : (\(words))") { $0.int(0) }
        return hits.sorted(by: >).map { entries[$0] }
    }
}
