/// Schema `v17_user_time_zone`: due dates in every reader's time zone (issue 28). A user's
/// IANA zone (or fixed offset), set by their client; and an item's due date as the instant the
/// server resolved at extraction, with the zone it was meant in. Empty and 0: not known, as for
/// every row written before this version (the due text as written is still there).
enum SchemaV17 {
    static let sql = """
        ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';
        ALTER TABLE assistant_items ADD COLUMN due_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE assistant_items ADD COLUMN due_time_zone TEXT NOT NULL DEFAULT '';
        """
}
