/// Migration `v5_assistant`: the assistant's items, summary cache, per-conversation switch and
/// per-user provider budget.
///
/// `assistant_items.rev` is one counter for the whole server (the next value is MAX(rev) + 1,
/// through its unique index): a client's ASSIST_SYNC cursor is the highest rev it holds.
enum SchemaV5 {
    static let sql = """
        CREATE TABLE assistant_items (
            id INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind INTEGER NOT NULL,               -- 1 action, 2 decision
            ordinal INTEGER NOT NULL,            -- the item's place among its message's items
            text TEXT NOT NULL,
            who TEXT NOT NULL DEFAULT '',
            due TEXT NOT NULL DEFAULT '',
            sender_id INTEGER NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            done_by INTEGER,
            done_at INTEGER NOT NULL DEFAULT 0,
            rev INTEGER NOT NULL,
            engine TEXT NOT NULL,
            engine_version TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            -- A message extracted twice (a restart mid-way) stores its items once.
            UNIQUE (conversation_id, seq, kind, ordinal)
        );
        CREATE UNIQUE INDEX assistant_items_rev ON assistant_items(rev);
        CREATE INDEX assistant_items_by_conversation ON assistant_items(conversation_id, id);

        -- Summaries by range and engine: a cached answer is reused only by the same engine version.
        CREATE TABLE assistant_summaries (
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            from_seq INTEGER NOT NULL,
            to_seq INTEGER NOT NULL,
            engine TEXT NOT NULL,
            engine_version TEXT NOT NULL,
            answer BLOB NOT NULL,                -- the ASSIST_SUMMARY_RESULT payload's fields
            created_at INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, from_seq, to_seq, engine, engine_version)
        ) WITHOUT ROWID;

        -- The per-conversation switch that keeps the conversation's text away from the provider.
        CREATE TABLE assistant_settings (
            conversation_id INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
            provider_off INTEGER NOT NULL DEFAULT 0,
            changed_by INTEGER,
            changed_at INTEGER NOT NULL
        );

        -- Provider requests per user per UTC day (the budget).
        CREATE TABLE assistant_usage (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            day INTEGER NOT NULL,                -- days since the epoch, UTC
            requests INTEGER NOT NULL,
            PRIMARY KEY (user_id, day)
        ) WITHOUT ROWID;
        """
}
