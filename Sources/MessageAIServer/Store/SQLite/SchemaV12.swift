/// Schema `v12_client_ids`: one namespace of client ids per user, shared by SEND and CHANGE
/// (PROTOCOL.md, "Message changes": "same namespace as SEND's"). Before it, messages and
/// changes each had their own unique key, so a CHANGE could reuse a message's id and the other
/// way round. Each append and change inserts its id here first, in its own transaction, before
/// it takes a sequence number: a clash is found before any seq is spent (a store that takes
/// seqs from a sequence, as PostgreSQL would, leaves no gap).
///
/// Ids already stored are copied in; where an older database holds one id twice (a message and
/// a change), the first copy wins and both rows stay as they are.
enum SchemaV12 {
    static let sql = """
        CREATE TABLE IF NOT EXISTS client_ids (
            user_id   INTEGER NOT NULL REFERENCES users(id),
            client_id BLOB NOT NULL,
            PRIMARY KEY (user_id, client_id)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO client_ids (user_id, client_id) SELECT sender_id, client_id FROM messages;
        INSERT OR IGNORE INTO client_ids (user_id, client_id) SELECT actor_id, client_id FROM message_changes;
        """
}
