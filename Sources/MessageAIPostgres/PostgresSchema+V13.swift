extension PostgresSchema {
    /// v13: the assistant's items reach every node (issue 26). One more kind of event, written
    /// by a trigger in the transaction of the write, as v7's and v9's are:
    ///
    /// - 10 assistant item: an item of `conversation_id` was stored or changed; `seq` is the
    ///   item's id (never its text). Nodes other than the writer read the items by id and push
    ///   them to their members' connections as the writer pushed them to its own.
    ///
    /// Only a write that gives the row a new rev is logged: every change a device must see
    /// takes one (stored, marked done or open, re-extracted, withdrawn, re-announced), while
    /// a re-extraction's reshuffle of places (`ordinal`) does not and tells nobody anything.
    /// `events_notify` (v7) wakes the readers.
    static let v13: [String] = [
        """
        CREATE FUNCTION messageai_log_item() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, conversation_id, seq, origin) VALUES (10, NEW.conversation_id, NEW.id, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER assistant_items_to_events AFTER INSERT ON assistant_items
        FOR EACH ROW EXECUTE FUNCTION messageai_log_item()
        """,
        """
        CREATE TRIGGER assistant_items_changed_to_events AFTER UPDATE OF rev ON assistant_items
        FOR EACH ROW WHEN (OLD.rev IS DISTINCT FROM NEW.rev) EXECUTE FUNCTION messageai_log_item()
        """,
    ]
}
