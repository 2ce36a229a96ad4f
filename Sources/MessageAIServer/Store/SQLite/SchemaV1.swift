/// Schema version 1. Times are milliseconds since the epoch; ids are rowids.
enum SchemaV1 {
    static let sql = """
        -- Usernames are kept as typed and compared lowercased; the UNIQUE lowercase columns
        -- make "exactly one wins" hold even for racing registrations.
        CREATE TABLE users (
            id             INTEGER PRIMARY KEY,
            username       TEXT NOT NULL,
            username_lower TEXT NOT NULL UNIQUE,
            email          TEXT NOT NULL,
            email_lower    TEXT NOT NULL UNIQUE,
            display_name   TEXT NOT NULL,
            password_hash  TEXT NOT NULL,
            created_at     INTEGER NOT NULL,
            last_seen      INTEGER NOT NULL DEFAULT 0,
            avatar         TEXT NULL -- reserved for file sharing
        );

        -- Only the SHA-256 of a token is stored.
        CREATE TABLE sessions (
            id           INTEGER PRIMARY KEY,
            user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            token_hash   BLOB NOT NULL UNIQUE,
            device       TEXT NOT NULL,
            created_at   INTEGER NOT NULL,
            last_used_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_by_user ON sessions(user_id);

        CREATE TABLE contacts (
            owner_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            contact_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (owner_id, contact_id)
        ) WITHOUT ROWID;
        -- "Who has me as a contact" (presence audience).
        CREATE INDEX contacts_by_contact ON contacts(contact_id, owner_id);

        CREATE TABLE conversations (
            id            INTEGER PRIMARY KEY,
            kind          INTEGER NOT NULL,          -- 1 direct, 2 group
            name          TEXT NOT NULL DEFAULT '',
            created_at    INTEGER NOT NULL,
            last_seq      INTEGER NOT NULL DEFAULT 0,
            last_activity INTEGER NOT NULL
        );

        -- One row per pair (low id < high id): the key makes a pair's DM unique even if two
        -- opens race.
        CREATE TABLE direct_pairs (
            low_user_id     INTEGER NOT NULL REFERENCES users(id),
            high_user_id    INTEGER NOT NULL REFERENCES users(id),
            conversation_id INTEGER NOT NULL UNIQUE REFERENCES conversations(id),
            PRIMARY KEY (low_user_id, high_user_id),
            CHECK (low_user_id < high_user_id)
        ) WITHOUT ROWID;

        -- A member who leaves is deleted; the markers are the member's receipts.
        CREATE TABLE members (
            conversation_id INTEGER NOT NULL REFERENCES conversations(id),
            user_id         INTEGER NOT NULL REFERENCES users(id),
            joined_at       INTEGER NOT NULL,
            delivered_seq   INTEGER NOT NULL DEFAULT 0,
            read_seq        INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (conversation_id, user_id)
        ) WITHOUT ROWID;
        -- A user's conversations (list, search scope, presence audience). The list is then sorted
        -- by last_activity in memory: one user has few conversations, and an index on
        -- last_activity would cost a write on every message.
        CREATE INDEX members_by_user ON members(user_id, conversation_id);

        -- `id` is a stable rowid for the FTS index; (conversation_id, seq) is the message's
        -- identity and order, and (sender_id, client_id) makes sending idempotent.
        CREATE TABLE messages (
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id),
            seq             INTEGER NOT NULL,
            sender_id       INTEGER NOT NULL REFERENCES users(id),
            client_id       BLOB NOT NULL,
            kind            INTEGER NOT NULL DEFAULT 1, -- 1 text; room for files later
            text            TEXT NOT NULL,
            server_time     INTEGER NOT NULL,
            UNIQUE (conversation_id, seq),
            UNIQUE (sender_id, client_id)
        );

        -- External-content full-text index: the text lives once, in `messages`. Messages are
        -- never updated or deleted, so an insert trigger keeps the index complete.
        CREATE VIRTUAL TABLE messages_fts USING fts5(
            text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
        END;
        """
}
