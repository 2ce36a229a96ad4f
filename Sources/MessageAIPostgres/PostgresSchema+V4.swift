extension PostgresSchema {
    /// v4: people and privacy, as the SQLite store has them up to its v17: a decline that
    /// outlives its request (SQLite v13), the away mark (v8), disabled accounts (v14), a
    /// user's time zone (v17), and display names found by their words (v16).
    static let v4: [String] = [
        // Nonzero: when an admin disabled the account (ms); logins and resumes are refused.
        "ALTER TABLE users ADD COLUMN disabled_at BIGINT NOT NULL DEFAULT 0",
        // An IANA name or fixed offset as the user's client sent it; empty: not known.
        "ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT ''",
        // The display name's words, cut and folded in Swift (`SearchVector.document`, the same
        // words as SQLite's users_fts), written with the name in the same statement.
        "ALTER TABLE users ADD COLUMN name_words tsvector NOT NULL DEFAULT ''",
        "CREATE INDEX users_name_words ON users USING GIN (name_words)",
        // Username prefixes as an index range in byte order (SQLite's BINARY collation): the
        // answer's order and the range's bounds do not depend on the database's locale.
        #"CREATE INDEX users_username_prefix ON users ((username_lower COLLATE "C"))"#,
        // A decline kept when its request's row is deleted (CONTACT_REMOVE): a new request from
        // the same requester starts declined. Forgotten when the decliner adds the requester.
        """
        CREATE TABLE kept_declines (
            decliner_id  BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            requester_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (decliner_id, requester_id)
        )
        """,
        // The away mark (/away, /back): a row while the user is away.
        """
        CREATE TABLE presence_status (
            user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            message TEXT NOT NULL,
            since   BIGINT NOT NULL
        )
        """,
    ]
}
