extension PostgresSchema {
    /// v15: each event of the log carries the members version its transaction saw (issue 26).
    ///
    /// The log is ordered by transaction id, taken at a transaction's first write, not by
    /// commit. A SEND through one node can take its id (writing its client id) before a leave
    /// through another node takes its own, then wait for the conversation's row behind the
    /// leave, and take its seq after the leave committed: its event sorts before the leave's.
    /// A third node reads the message first and would push it from members that still hold
    /// the leaver. With the version beside the event that node sees the message was made under
    /// a newer membership than it caches, and reads the members again first.
    ///
    /// - `events.members_version`: for a message or a change (kinds 1, 2), the conversation's
    ///   version as the writing transaction sees it. The writer holds the conversation's row
    ///   lock from taking the seq to its commit, so this is the version the seq was taken
    ///   under (the one `messageai_send` answers). For an assistant item (kind 10) it is the
    ///   version committed when the item was written: no row lock, a plain read, which is
    ///   enough for a leave committed before it. 0 for every other kind and for older rows
    ///   (0 trusts the cached members, as before).
    /// - The two trigger functions are replaced in place; the triggers that call them stay.
    ///   A node of the previous release does not read the column and works as before.
    static let v15: [String] = [
        "ALTER TABLE events ADD COLUMN members_version BIGINT NOT NULL DEFAULT 0",
        """
        CREATE OR REPLACE FUNCTION messageai_log_seq() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, seq, origin, members_version)
            VALUES (TG_ARGV[0]::smallint, NEW.conversation_id, NEW.seq, messageai_origin(),
                    coalesce((SELECT c.members_version FROM conversations c WHERE c.id = NEW.conversation_id), 0));
            RETURN NULL;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION messageai_log_item() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, seq, origin, members_version)
            VALUES (10, NEW.conversation_id, NEW.id, messageai_origin(),
                    coalesce((SELECT c.members_version FROM conversations c WHERE c.id = NEW.conversation_id), 0));
            RETURN NULL;
        END $$
        """,
    ]
}
