extension PostgresSchema {
    /// v6: a message's attachment as the shared store interface returns it. The file's own
    /// fields (name, size, type, hash, dimensions) are read from `files` through `file_id`;
    /// the caption is the sender's, per message, so it lives on the message row, and a delete
    /// for everyone empties it with the text (SQLite keeps both in its `attachment` column).
    static let v6: [String] = [
        "ALTER TABLE messages ADD COLUMN caption TEXT NOT NULL DEFAULT ''",
    ]
}
