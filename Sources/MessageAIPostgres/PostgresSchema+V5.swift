extension PostgresSchema {
    /// v5: the assistant's tables, as SQLite's v5 and v17 have them, except for where a rev
    /// comes from. SQLite takes MAX(rev) + 1, safe with one writer. Here two writers could take
    /// the same, or a reader could see rev N+1 committed before N and move its ASSIST_SYNC
    /// cursor past N for good. So revs come from one counter row (`assistant_rev`) that every
    /// writer of revs updates first in its transaction: its row lock is held to the commit, so
    /// the writer of N+1 gets its numbers only after N committed, and only committed items
    /// advance the counter (no gap).
    static let v5: [String] = [
        """
        CREATE TABLE assistant_items (
            id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            conversation_id BIGINT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            seq             BIGINT NOT NULL,
            kind            SMALLINT NOT NULL,        -- 1 action, 2 decision
            ordinal         BIGINT NOT NULL,          -- the item's place among its message's items
            text            TEXT NOT NULL,
            who             TEXT NOT NULL DEFAULT '',
            due             TEXT NOT NULL DEFAULT '',
            sender_id       BIGINT NOT NULL REFERENCES users(id),
            done            BOOLEAN NOT NULL DEFAULT false,
            done_by         BIGINT REFERENCES users(id),
            done_at         BIGINT NOT NULL DEFAULT 0,
            rev             BIGINT NOT NULL,
            engine          TEXT NOT NULL,
            engine_version  TEXT NOT NULL,
            created_at      BIGINT NOT NULL,
            due_at          BIGINT NOT NULL DEFAULT 0,
            due_time_zone   TEXT NOT NULL DEFAULT '',
            -- A message extracted twice (a restart mid-way) stores its items once.
            UNIQUE (conversation_id, seq, kind, ordinal)
        )
        """,
        "CREATE UNIQUE INDEX assistant_items_rev ON assistant_items(rev)",
        "CREATE INDEX assistant_items_by_conversation ON assistant_items(conversation_id, id)",
        """
        CREATE TABLE assistant_rev (
            id  SMALLINT PRIMARY KEY CHECK (id = 1),
            rev BIGINT NOT NULL
        )
        """,
        "INSERT INTO assistant_rev (id, rev) VALUES (1, 0)",
        // A cached answer is reused only by the same engine version.
        """
        CREATE TABLE assistant_summaries (
            conversation_id BIGINT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            from_seq        BIGINT NOT NULL,
            to_seq          BIGINT NOT NULL,
            engine          TEXT NOT NULL,
            engine_version  TEXT NOT NULL,
            answer          BYTEA NOT NULL,
            created_at      BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, from_seq, to_seq, engine, engine_version)
        )
        """,
        """
        CREATE TABLE assistant_settings (
            conversation_id BIGINT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
            provider_off    BOOLEAN NOT NULL DEFAULT false,
            changed_by      BIGINT REFERENCES users(id),
            changed_at      BIGINT NOT NULL
        )
        """,
        // Provider requests per user per UTC day (the budget).
        """
        CREATE TABLE assistant_usage (
            user_id  BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            day      BIGINT NOT NULL,
            requests INTEGER NOT NULL,
            PRIMARY KEY (user_id, day)
        )
        """,
    ]
}
