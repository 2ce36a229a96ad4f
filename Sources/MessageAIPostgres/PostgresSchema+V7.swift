extension PostgresSchema {
    /// v7: the event log several nodes on one database read to deliver each other's commits
    /// (issue 26; PostgresStore+EventLog.swift reads it).
    ///
    /// Triggers write it, in the transaction of the fact, so the append and change paths are
    /// untouched and nothing commits without its event. A row names the conversation and the
    /// seq (or the member), never a text. `xid` orders the log as commits can be read safely:
    /// identity positions are taken in one order and committed in another, and a reader only
    /// reads below the oldest running transaction's xid. `origin` is the writing server's id
    /// (a random number per process, set per connection as `messageai.origin`): NULL for any
    /// other writer. `NOTIFY` carries no payload and is sent at commit, once per transaction
    /// (PostgreSQL folds identical notifications).
    static let v7: [String] = [
        """
        CREATE TABLE events (
            position        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            xid             xid8 NOT NULL DEFAULT pg_current_xact_id(),
            kind            SMALLINT NOT NULL,  -- 1 message, 2 change, 3 membership or name, 4 receipt, 5 contact
            conversation_id BIGINT NOT NULL DEFAULT 0,
            seq             BIGINT NOT NULL DEFAULT 0,
            user_id         BIGINT NOT NULL DEFAULT 0,
            to_user_id      BIGINT NOT NULL DEFAULT 0,          -- kind 5: the user asked (or accepted)
            origin          BIGINT,
            created_at      BIGINT NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint
        )
        """,
        "CREATE INDEX events_by_xid ON events (xid, position)",
        "CREATE INDEX events_by_seq ON events (conversation_id, seq) WHERE kind IN (1, 2)",
        "CREATE INDEX events_by_age ON events (created_at)",
        """
        CREATE FUNCTION messageai_origin() RETURNS bigint LANGUAGE sql STABLE
        AS $$ SELECT nullif(current_setting('messageai.origin', true), '')::bigint $$
        """,
        """
        CREATE FUNCTION messageai_log_seq() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, seq, origin)
            VALUES (TG_ARGV[0]::smallint, NEW.conversation_id, NEW.seq, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER messages_to_events AFTER INSERT ON messages
        FOR EACH ROW EXECUTE FUNCTION messageai_log_seq('1')
        """,
        """
        CREATE TRIGGER message_changes_to_events AFTER INSERT ON message_changes
        FOR EACH ROW EXECUTE FUNCTION messageai_log_seq('2')
        """,
        """
        CREATE FUNCTION messageai_log_member() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                INSERT INTO events (kind, conversation_id, user_id, origin)
                VALUES (3, OLD.conversation_id, OLD.user_id, messageai_origin());
            ELSE
                INSERT INTO events (kind, conversation_id, user_id, origin)
                VALUES (3, NEW.conversation_id, NEW.user_id, messageai_origin());
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER members_to_events AFTER INSERT OR DELETE ON members
        FOR EACH ROW EXECUTE FUNCTION messageai_log_member()
        """,
        // A member's delivered or read marker rose (MARK): the receipt reaches the other nodes.
        """
        CREATE FUNCTION messageai_log_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, user_id, origin)
            VALUES (4, NEW.conversation_id, NEW.user_id, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER members_receipts_to_events AFTER UPDATE OF delivered_seq, read_seq ON members
        FOR EACH ROW WHEN (OLD.delivered_seq IS DISTINCT FROM NEW.delivered_seq OR OLD.read_seq IS DISTINCT FROM NEW.read_seq)
        EXECUTE FUNCTION messageai_log_receipt()
        """,
        // `user_id` now wants `to_user_id` as a contact (a request, or the accept of theirs).
        """
        CREATE FUNCTION messageai_log_contact() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, user_id, to_user_id, origin) VALUES (5, NEW.owner_id, NEW.contact_id, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER contacts_to_events AFTER INSERT ON contacts
        FOR EACH ROW EXECUTE FUNCTION messageai_log_contact()
        """,
        """
        CREATE FUNCTION messageai_log_rename() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, origin) VALUES (3, NEW.id, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER conversations_renamed_to_events AFTER UPDATE OF name ON conversations
        FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION messageai_log_rename()
        """,
        """
        CREATE FUNCTION messageai_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('messageai_events', '');
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER events_notify AFTER INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION messageai_notify_events()
        """,
    ]
}
