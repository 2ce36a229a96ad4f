extension PostgresSchema {
    /// v11 (v9 and v10 are other stages' of issue 26): extraction as durable jobs. A trigger on
    /// `messages` queues every new text message in `extraction_jobs` in the transaction that
    /// stores it (a trigger rather than a line in `messageai_append`, so the append path stays
    /// one function another change may rewrite), so a committed message is never without its
    /// job, whichever node committed it and whatever happens to that node afterwards. A node
    /// claims jobs for a lease (`claim`, `claimed_until` in ms of the database's clock) and
    /// stores the items in the transaction that deletes the jobs it still holds
    /// (PostgresStore+ExtractionJobs.swift).
    ///
    /// `extraction_queue.enabled` is what the nodes' `--assistant-extract` says (each node sets
    /// it at start): with extraction off no job is queued, as SQLite extracts nothing while it
    /// is off. The lookup is one row by primary key per stored message.
    static let v11: [String] = [
        """
        CREATE TABLE extraction_queue (
            id      SMALLINT PRIMARY KEY CHECK (id = 1),
            enabled BOOLEAN NOT NULL
        )
        """,
        "INSERT INTO extraction_queue (id, enabled) VALUES (1, false)",
        """
        CREATE TABLE extraction_jobs (
            conversation_id BIGINT NOT NULL,
            seq             BIGINT NOT NULL,
            claim           BIGINT NOT NULL DEFAULT 0,
            claimed_until   BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (conversation_id, seq)
        )
        """,
        """
        CREATE FUNCTION messageai_queue_extraction() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.kind = 1 AND (SELECT enabled FROM extraction_queue WHERE id = 1) THEN
                INSERT INTO extraction_jobs (conversation_id, seq) VALUES (NEW.conversation_id, NEW.seq)
                ON CONFLICT DO NOTHING;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER messages_queue_extraction AFTER INSERT ON messages
        FOR EACH ROW EXECUTE FUNCTION messageai_queue_extraction()
        """,
    ]
}
