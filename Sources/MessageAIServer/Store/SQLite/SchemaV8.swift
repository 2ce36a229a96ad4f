/// Schema `v8_presence_status`: a user's "away" mark and its text (/away, /back). A row means
/// away; no row means available. Kept apart from `users` so that the hot user queries stay as
/// they are and the mark can be cleared by deleting one row.
enum SchemaV8 {
    static let sql = """
        CREATE TABLE IF NOT EXISTS presence_status (
            user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            message    TEXT NOT NULL DEFAULT '',
            since      INTEGER NOT NULL
        );
        """
}
