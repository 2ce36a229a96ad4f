extension PostgresSchema {
    /// v2: search and the purge of deleted text.
    static let v2: [String] = [
        // The message's words as lexemes with positions, written by the store from
        // `SearchVector.document` (cut and folded in Swift; see SearchVector.swift), emptied
        // by a delete in the delete's own transaction. GIN finds the rows holding every word.
        "ALTER TABLE messages ADD COLUMN search tsvector NOT NULL DEFAULT ''",
        "CREATE INDEX messages_search ON messages USING GIN (search)",
        // A row while a delete's (or an edit's) old text may still lie in dead row versions
        // and WAL segments (PostgresStore+Purge.swift). One row at most: `owed_since` is the
        // oldest change not yet purged, `generation` counts the changes, so a purge clears the
        // row only if no change came after the purge began.
        """
        CREATE TABLE purge_owed (
            id         SMALLINT PRIMARY KEY CHECK (id = 1),
            owed_since BIGINT NOT NULL,
            generation BIGINT NOT NULL DEFAULT 1
        )
        """,
    ]
}
