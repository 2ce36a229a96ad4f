/// Schema version 6: replies, reactions, edits and deletes (`v6_message_changes`).
///
/// Every existing message is kept as it was: the new columns default to "no reply, never
/// edited, not deleted" (SQLite adds them without rewriting the table). A change takes a seq in
/// its conversation like a message (`conversations.last_seq`), so `messages.seq` may now have
/// gaps where changes are; `(conversation_id, seq)` stays unique across both tables because
/// both take their seq from the same counter. Change rows keep no text: an edit's text lives
/// only in `messages.text` (earlier versions are not kept), so a delete leaves nothing behind.
enum SchemaV6 {
    static let sql = """
        ALTER TABLE messages ADD COLUMN reply_to INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN edited_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;

        -- action: 1 react, 2 unreact, 3 edit, 4 delete. (actor_id, client_id) makes a change
        -- idempotent like SEND.
        CREATE TABLE message_changes (
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id),
            seq             INTEGER NOT NULL,
            actor_id        INTEGER NOT NULL REFERENCES users(id),
            client_id       BLOB NOT NULL,
            target_seq      INTEGER NOT NULL,
            action          INTEGER NOT NULL,
            emoji           TEXT NOT NULL DEFAULT '',
            server_time     INTEGER NOT NULL,
            UNIQUE (conversation_id, seq),
            UNIQUE (actor_id, client_id)
        );

        -- Current reactions: one of each emoji per member per message. `change_seq` orders them
        -- as they were added.
        CREATE TABLE reactions (
            conversation_id INTEGER NOT NULL,
            seq             INTEGER NOT NULL,
            user_id         INTEGER NOT NULL REFERENCES users(id),
            emoji           TEXT NOT NULL,
            change_seq      INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, seq, user_id, emoji)
        ) WITHOUT ROWID;
        """
}
