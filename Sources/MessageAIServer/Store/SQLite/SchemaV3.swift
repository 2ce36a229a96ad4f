/// Schema version 3: messages are no longer indexed by a trigger inside the transaction that
/// stores them. FTS5 writes a new segment per transaction, so the trigger cost every one-message
/// SEND ~8 extra page writes and ~30 µs before its ack (BENCHMARKS.md E2). The store now indexes
/// in batches (`SQLiteStore.indexPendingMessages`), catches up before every search, and indexes
/// whatever is missing when it opens (a crash between a commit and its indexing).
enum SchemaV3 {
    static let sql = """
        DROP TRIGGER messages_fts_insert;
        """
}
