/// Schema version 4: contacts by consent, and blocking.
///
/// A `contacts` row (owner -> contact) now reads "owner wants contact": two rows, one each way,
/// make an accepted contact; one row alone is a pending request, which the contact may decline
/// (`declined`, set on the requester's row so the requester is not told). Existing rows keep
/// their meaning unchanged: pairs who had added each other are accepted contacts, one-way adds
/// become pending requests the other side can accept or decline. `members.pending` marks a
/// message request (see ChatServer+Privacy).
enum SchemaV4 {
    static let sql = """
        ALTER TABLE contacts ADD COLUMN declined INTEGER NOT NULL DEFAULT 0;

        -- A message request held for this member: a direct conversation a non-contact started,
        -- not yet accepted. Existing conversations stay accepted.
        ALTER TABLE members ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;

        CREATE TABLE blocks (
            blocker_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            blocked_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (blocker_id, blocked_id)
        ) WITHOUT ROWID;
        -- "Who blocks me" (presence audience, SEND checks).
        CREATE INDEX blocks_by_blocked ON blocks(blocked_id, blocker_id);
        """
}
