extension PostgresSchema {
    /// v9: what several nodes share besides the durable log (issue 26 stage B): which node
    /// holds which user's connections, each node's heartbeat, and four more kinds of event
    /// (PostgresStore+Nodes.swift writes 6 and 7, triggers write 8 and 9).
    ///
    /// - 6 presence: `user_id` came online across all nodes (`seq` 0) or went offline (`seq`
    ///   is the last-seen time, milliseconds). Written by the transaction that saw the change,
    ///   under the user's advisory lock, so a user's presence events are in the log's order.
    /// - 7 typing: `user_id` typed in `conversation_id`. Ids only, never text.
    /// - 8 session ended: `user_id`'s session `seq` was deleted (logout, revoke, password
    ///   change or reset, admin); every node closes its connections on it.
    /// - 9 profile: `user_id`'s display name, time zone or avatar changed, or an admin disabled
    ///   the account. `seq` bits: 1 the avatar changed (pushed as one node pushes it), 2 the
    ///   account was disabled (its connections close on every node); nodes refresh the user's
    ///   connections in any case.
    ///
    /// `heartbeat_at` is the database's clock, never a node's: nodes compare it with the same
    /// clock, so skew between machines moves no deadline.
    static let v9: [String] = [
        """
        CREATE TABLE nodes (
            id           BIGINT PRIMARY KEY,      -- the process's origin (messageai.origin)
            heartbeat_at BIGINT NOT NULL          -- milliseconds, the database's clock
        )
        """,
        """
        CREATE TABLE node_users (
            node_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (node_id, user_id)
        )
        """,
        "CREATE INDEX node_users_by_user ON node_users (user_id)",
        """
        CREATE FUNCTION messageai_log_session() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, user_id, seq, origin) VALUES (8, OLD.user_id, OLD.id, messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER sessions_to_events AFTER DELETE ON sessions
        FOR EACH ROW EXECUTE FUNCTION messageai_log_session()
        """,
        """
        CREATE FUNCTION messageai_log_profile() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO events (kind, user_id, seq, origin)
            VALUES (9, NEW.id, CASE WHEN OLD.avatar_file_id IS DISTINCT FROM NEW.avatar_file_id THEN 1 ELSE 0 END
                             + CASE WHEN OLD.disabled_at = 0 AND NEW.disabled_at <> 0 THEN 2 ELSE 0 END,
                    messageai_origin());
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER users_profile_to_events AFTER UPDATE OF display_name, time_zone, avatar_file_id, disabled_at ON users
        FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.time_zone IS DISTINCT FROM NEW.time_zone
                           OR OLD.avatar_file_id IS DISTINCT FROM NEW.avatar_file_id
                           OR (OLD.disabled_at = 0 AND NEW.disabled_at <> 0))
        EXECUTE FUNCTION messageai_log_profile()
        """,
    ]
}
