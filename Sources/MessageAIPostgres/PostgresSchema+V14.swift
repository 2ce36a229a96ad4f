extension PostgresSchema {
    /// v14: each conversation's members version, so that a node never pushes a message to a
    /// member removed through another node before it read the removal from the log (issue 26).
    ///
    /// - `conversations.members_version` rises in the transaction of every insert or delete of
    ///   `members` (statement triggers, one rise per statement and conversation). The rise is an
    ///   UPDATE of the conversation's row, the row a SEND or CHANGE locks to take its seq: a
    ///   membership change and a seq are therefore ordered one way, and a seq taken after a
    ///   removal committed reads the risen version (READ COMMITTED re-reads a row it waited for).
    ///   A member's row is locked before the conversation's here, and no transaction locks the
    ///   two the other way round (a SEND or CHANGE only reads `members`), so no deadlock is added.
    /// - `messageai_send` and `messageai_send_limited` answer the version each seq was taken
    ///   under (`o_members`; 0 for an outcome that took none). Both are dropped and made again:
    ///   a function's result columns cannot be changed in place. A node of the previous release
    ///   names its three columns and reads the same answers until it is restarted.
    static let v14: [String] = [
        "ALTER TABLE conversations ADD COLUMN members_version BIGINT NOT NULL DEFAULT 0",
        """
        CREATE FUNCTION messageai_members_moved() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE conversations c SET members_version = c.members_version + 1
            WHERE c.id IN (SELECT DISTINCT conversation_id FROM moved);
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER members_joined_version AFTER INSERT ON members
        REFERENCING NEW TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION messageai_members_moved()
        """,
        """
        CREATE TRIGGER members_left_version AFTER DELETE ON members
        REFERENCING OLD TABLE AS moved FOR EACH STATEMENT EXECUTE FUNCTION messageai_members_moved()
        """,
        """
        DROP FUNCTION messageai_send_limited(DOUBLE PRECISION, BIGINT, BIGINT[], BIGINT[], BYTEA[], TEXT[], BIGINT[],
                                             BIGINT[], BYTEA[], TEXT[], TEXT[], BOOLEAN[])
        """,
        "DROP FUNCTION messageai_send(BIGINT[], BIGINT[], BYTEA[], TEXT[], BIGINT[], BIGINT[], BYTEA[], TEXT[], TEXT[], BOOLEAN[])",
        // v12's function, statement for statement, but for the version read with the seq.
        """
        CREATE FUNCTION messageai_send(p_conversation BIGINT[], p_sender BIGINT[], p_client BYTEA[], p_text TEXT[],
                                       p_time BIGINT[], p_reply BIGINT[], p_file BYTEA[], p_caption TEXT[],
                                       p_search TEXT[], p_confirm BOOLEAN[])
        RETURNS TABLE (o_index INT, o_outcome SMALLINT, o_seq BIGINT, o_members BIGINT)
        LANGUAGE plpgsql AS $$
        DECLARE
            s BIGINT;
            v BIGINT;
        BEGIN
            FOR i IN 1 .. coalesce(array_length(p_conversation, 1), 0) LOOP
                IF p_confirm[i] AND (
                    NOT EXISTS (SELECT 1 FROM members m
                                WHERE m.conversation_id = p_conversation[i] AND m.user_id = p_sender[i] AND NOT m.pending)
                    OR EXISTS (SELECT 1 FROM direct_pairs d JOIN blocks b
                                 ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                                 OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                               WHERE d.conversation_id = p_conversation[i])) THEN
                    o_index := i; o_outcome := 3; o_seq := 0; o_members := 0;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                INSERT INTO client_ids (user_id, client_id, kind, created_at)
                VALUES (p_sender[i], p_client[i], 1, p_time[i])
                ON CONFLICT DO NOTHING;
                IF NOT FOUND THEN
                    o_index := i; o_outcome := 2; o_seq := 0; o_members := 0;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                UPDATE conversations c SET last_seq = c.last_seq + 1,
                    last_activity = GREATEST(c.last_activity, p_time[i])
                WHERE c.id = p_conversation[i]
                RETURNING c.last_seq, c.members_version INTO s, v;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'no such conversation' USING ERRCODE = 'P0002';
                END IF;
                INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to,
                                      file_id, caption, search)
                VALUES (p_conversation[i], s, p_sender[i], p_client[i], 1, p_text[i], p_time[i], p_reply[i],
                        NULLIF(p_file[i], ''::bytea), p_caption[i], p_search[i]::tsvector);
                o_index := i; o_outcome := 1; o_seq := s; o_members := v;
                RETURN NEXT;
            END LOOP;
        END
        $$
        """,
        """
        CREATE FUNCTION messageai_send_limited(p_capacity DOUBLE PRECISION, p_window BIGINT,
                                               p_conversation BIGINT[], p_sender BIGINT[], p_client BYTEA[], p_text TEXT[],
                                               p_time BIGINT[], p_reply BIGINT[], p_file BYTEA[], p_caption TEXT[],
                                               p_search TEXT[], p_confirm BOOLEAN[])
        RETURNS TABLE (o_index INT, o_outcome SMALLINT, o_seq BIGINT, o_members BIGINT)
        LANGUAGE plpgsql AS $$
        DECLARE
            n INT := coalesce(array_length(p_conversation, 1), 0);
            refused BIGINT[] := messageai_send_refusals(p_capacity, p_window, p_sender, p_client);
            keep INT[];
        BEGIN
            IF refused IS NULL THEN
                RETURN QUERY SELECT * FROM messageai_send(p_conversation, p_sender, p_client, p_text, p_time, p_reply,
                                                          p_file, p_caption, p_search, p_confirm);
                RETURN;
            END IF;
            RETURN QUERY SELECT i, 4::smallint, refused[i], 0::bigint FROM generate_series(1, n) i WHERE refused[i] > 0;
            SELECT array_agg(i ORDER BY i) INTO keep FROM generate_series(1, n) i WHERE refused[i] = 0;
            IF keep IS NULL THEN RETURN; END IF;
            RETURN QUERY SELECT keep[r.o_index], r.o_outcome, r.o_seq, r.o_members FROM messageai_send(
                (SELECT array_agg(p_conversation[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_sender[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_client[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_text[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_time[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_reply[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_file[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_caption[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_search[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o)),
                (SELECT array_agg(p_confirm[k] ORDER BY o) FROM unnest(keep) WITH ORDINALITY u(k, o))) r;
        END
        $$
        """,
    ]
}
