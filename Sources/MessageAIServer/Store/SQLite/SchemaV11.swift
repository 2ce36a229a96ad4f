/// Schema `v11_speed`: a deleted message's words are scrubbed from the full-text index in
/// bounded steps after the delete's transaction instead of by one `optimize` inside it (which
/// rewrote the whole index on the hub). The row says a scrub is owed; it is written in the
/// delete's own transaction and removed when the index is merged, so a scrub cut short by a
/// crash is finished when the store opens again.
enum SchemaV11 {
    static let sql = """
        CREATE TABLE IF NOT EXISTS pending_scrub (
            id INTEGER PRIMARY KEY CHECK (id = 1)
        );
        """
}
