import MessageAISQLite

// The full-text index, written in batches after the messages it covers were committed.
extension SQLiteStore {
    /// Indexes every stored message not yet in `messages_fts`, in one transaction. Message ids
    /// only grow and messages are never updated or deleted, so "not yet indexed" is every id
    /// above the index's highest rowid. The index holds `search_words(text)` (SearchWords: CJK
    /// and Thai runs as overlapping pairs), the words the client's cache holds too.
    public func indexPendingMessages() throws {
        // The cheap check first: a search calls this every time.
        let newest = try db.queryOne("SELECT coalesce(max(id), 0) FROM messages") { $0.uint64(0) } ?? 0
        guard newest > indexedThrough else { return }
        indexedThrough = try db.transaction {
            // Read again inside the transaction: another connection to the file (tests) may
            // have indexed meanwhile, and a message must not be indexed twice.
            let indexed = try highestIndexedID()
            try db.run("""
                INSERT INTO messages_fts (rowid, text, conv)
                SELECT id, search_words(text), 'c' || conversation_id FROM messages WHERE id > ? AND id <= ? ORDER BY id
                """, indexed, newest)
            return newest
        }
    }

    /// FTS5 walks rowids in order from either end, so this reads only the newest entry.
    func highestIndexedID() throws -> UInt64 {
        try db.queryOne("SELECT rowid FROM messages_fts ORDER BY rowid DESC LIMIT 1") { $0.uint64(0) } ?? 0
    }
}
