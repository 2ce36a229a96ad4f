/// The PostgreSQL schema, version by version. Tables and columns follow the SQLite store's
/// (Sources/MessageAIServer/Store/SQLite/) so that porting each query is mechanical; where
/// they differ, the reason is given beside the table. Times are milliseconds since the epoch
/// (BIGINT), ids are identity columns, byte strings are BYTEA, flags are BOOLEAN.
///
/// PostgresNIO sends every query with the extended protocol, which takes one statement at a
/// time, so a migration is a list of statements rather than one script.
enum PostgresSchema {
    static let v1: [String] = [
        """
        CREATE TABLE users (
            id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            username       TEXT NOT NULL,
            username_lower TEXT NOT NULL UNIQUE,
            email          TEXT NOT NULL,
            email_lower    TEXT NOT NULL UNIQUE,
            display_name   TEXT NOT NULL,
            password_hash  TEXT NOT NULL,
            created_at     BIGINT NOT NULL,
            last_seen      BIGINT NOT NULL DEFAULT 0,
            avatar_file_id BYTEA
        )
        """,
        // Only the SHA-256 of a token is stored.
        """
        CREATE TABLE sessions (
            id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            token_hash   BYTEA NOT NULL UNIQUE,
            device       TEXT NOT NULL,
            created_at   BIGINT NOT NULL,
            last_used_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX sessions_by_user ON sessions(user_id)",
        // `last_seq` is the conversation's counter: every writer takes the next number with
        // `UPDATE ... RETURNING` under this row's lock, so two processes cannot take the same.
        """
        CREATE TABLE conversations (
            id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            kind           SMALLINT NOT NULL,          -- 1 direct, 2 group
            name           TEXT NOT NULL DEFAULT '',
            created_at     BIGINT NOT NULL,
            last_seq       BIGINT NOT NULL DEFAULT 0,
            last_activity  BIGINT NOT NULL,
            avatar_file_id BYTEA
        )
        """,
        // One row per pair: the key makes a pair's direct conversation unique even if two opens race.
        """
        CREATE TABLE direct_pairs (
            low_user_id     BIGINT NOT NULL REFERENCES users(id),
            high_user_id    BIGINT NOT NULL REFERENCES users(id),
            conversation_id BIGINT NOT NULL UNIQUE REFERENCES conversations(id),
            PRIMARY KEY (low_user_id, high_user_id),
            CHECK (low_user_id < high_user_id)
        )
        """,
        // A member who leaves is deleted; the markers are the member's receipts; `pending`
        // marks a message request held for this member.
        """
        CREATE TABLE members (
            conversation_id BIGINT NOT NULL REFERENCES conversations(id),
            user_id         BIGINT NOT NULL REFERENCES users(id),
            joined_at       BIGINT NOT NULL,
            delivered_seq   BIGINT NOT NULL DEFAULT 0,
            read_seq        BIGINT NOT NULL DEFAULT 0,
            pending         BOOLEAN NOT NULL DEFAULT false,
            PRIMARY KEY (conversation_id, user_id)
        )
        """,
        "CREATE INDEX members_by_user ON members(user_id, conversation_id)",
        // One namespace of client ids per user, for SEND and CHANGE alike (issue 23): the row is
        // written first in the transaction that stores the message or change, so a reused id is
        // found before a sequence number is taken and never leaves a gap.
        """
        CREATE TABLE client_ids (
            user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            client_id  BYTEA NOT NULL,
            kind       SMALLINT NOT NULL,              -- 1 message, 2 change
            created_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, client_id)
        )
        """,
        // (conversation_id, seq) is the message's identity and order. (sender_id, client_id)
        // finds the original of a resend. Unlike SQLite, no `attachment` column of wire bytes:
        // the attachment's own columns come with the files port.
        """
        CREATE TABLE messages (
            id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            conversation_id BIGINT NOT NULL REFERENCES conversations(id),
            seq             BIGINT NOT NULL,
            sender_id       BIGINT NOT NULL REFERENCES users(id),
            client_id       BYTEA NOT NULL,
            kind            SMALLINT NOT NULL DEFAULT 1,  -- 1 text
            text            TEXT NOT NULL,
            server_time     BIGINT NOT NULL,
            reply_to        BIGINT NOT NULL DEFAULT 0,
            edited_at       BIGINT NOT NULL DEFAULT 0,
            deleted         BOOLEAN NOT NULL DEFAULT false,
            file_id         BYTEA,
            UNIQUE (conversation_id, seq),
            UNIQUE (sender_id, client_id)
        )
        """,
        "CREATE INDEX messages_by_file ON messages(file_id) WHERE file_id IS NOT NULL",
        // A change takes its seq from the same counter as messages. action: 1 react, 2 unreact,
        // 3 edit, 4 delete. Change rows keep no text.
        """
        CREATE TABLE message_changes (
            id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            conversation_id BIGINT NOT NULL REFERENCES conversations(id),
            seq             BIGINT NOT NULL,
            actor_id        BIGINT NOT NULL REFERENCES users(id),
            client_id       BYTEA NOT NULL,
            target_seq      BIGINT NOT NULL,
            action          SMALLINT NOT NULL,
            emoji           TEXT NOT NULL DEFAULT '',
            server_time     BIGINT NOT NULL,
            UNIQUE (conversation_id, seq),
            UNIQUE (actor_id, client_id)
        )
        """,
        """
        CREATE TABLE reactions (
            conversation_id BIGINT NOT NULL,
            seq             BIGINT NOT NULL,
            user_id         BIGINT NOT NULL REFERENCES users(id),
            emoji           TEXT NOT NULL,
            change_seq      BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, seq, user_id, emoji)
        )
        """,
        // A row (owner -> contact) reads "owner wants contact": one each way is an accepted
        // contact, one alone a pending request; `declined` is set on the requester's row.
        """
        CREATE TABLE contacts (
            owner_id   BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            contact_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            declined   BOOLEAN NOT NULL DEFAULT false,
            PRIMARY KEY (owner_id, contact_id)
        )
        """,
        "CREATE INDEX contacts_by_contact ON contacts(contact_id, owner_id)",
        """
        CREATE TABLE blocks (
            blocker_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            blocked_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (blocker_id, blocked_id)
        )
        """,
        "CREATE INDEX blocks_by_blocked ON blocks(blocked_id, blocker_id)",
    ]
}
