/// Schema `v13_kept_declines`: a decline outlives the request it declined. The decline is a flag
/// on the requester's contacts row, and CONTACT_REMOVE deletes that row, so removing and adding
/// again made a fresh request that reached the decliner (PROTOCOL.md: "asking again does not
/// reach the decliner"). The row's decline is kept here when it is deleted, and a new request
/// from the same requester starts declined. It is forgotten when the decliner adds or accepts
/// the requester.
enum SchemaV13 {
    static let sql = """
        CREATE TABLE IF NOT EXISTS kept_declines (
            decliner_id  INTEGER NOT NULL REFERENCES users(id),
            requester_id INTEGER NOT NULL REFERENCES users(id),
            PRIMARY KEY (decliner_id, requester_id)
        ) WITHOUT ROWID;
        """
}
