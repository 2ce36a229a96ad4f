extension PostgresSchema {
    /// v12: `messageai_send`, the
    /// batch function of v8 with the SEND handler's membership and block checks folded in, so a
    /// SEND costs one round trip (the batch's) instead of two (BENCHMARKS.md, "perf25c"). v8's
    /// `messageai_append` stays as it was: a node still running the previous release (an older
    /// server refuses the migrated database only when it starts) calls it until restarted.
    ///
    /// `p_confirm[i]`: check that the sender is a member who holds no message request
    /// (`pending`) and that no block stands in the direct conversation (the conditions of
    /// `PostgresStore.membership`), before anything of the message is written; outcome 3
    /// (refused) if not, nothing stored and no seq taken, and the rest of the batch goes on.
    /// The check reads committed rows as the statement starts, as the handler's separate query
    /// did, only closer to the commit. The rest is v8's function, statement for statement.
    static let v12: [String] = [
        """
        CREATE FUNCTION messageai_send(p_conversation BIGINT[], p_sender BIGINT[], p_client BYTEA[], p_text TEXT[],
                                       p_time BIGINT[], p_reply BIGINT[], p_file BYTEA[], p_caption TEXT[],
                                       p_search TEXT[], p_confirm BOOLEAN[])
        RETURNS TABLE (o_index INT, o_outcome SMALLINT, o_seq BIGINT)
        LANGUAGE plpgsql AS $$
        DECLARE
            s BIGINT;
        BEGIN
            FOR i IN 1 .. coalesce(array_length(p_conversation, 1), 0) LOOP
                IF p_confirm[i] AND (
                    NOT EXISTS (SELECT 1 FROM members m
                                WHERE m.conversation_id = p_conversation[i] AND m.user_id = p_sender[i] AND NOT m.pending)
                    OR EXISTS (SELECT 1 FROM direct_pairs d JOIN blocks b
                                 ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                                 OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                               WHERE d.conversation_id = p_conversation[i])) THEN
                    o_index := i; o_outcome := 3; o_seq := 0;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                INSERT INTO client_ids (user_id, client_id, kind, created_at)
                VALUES (p_sender[i], p_client[i], 1, p_time[i])
                ON CONFLICT DO NOTHING;
                IF NOT FOUND THEN
                    o_index := i; o_outcome := 2; o_seq := 0;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                UPDATE conversations c SET last_seq = c.last_seq + 1,
                    last_activity = GREATEST(c.last_activity, p_time[i])
                WHERE c.id = p_conversation[i]
                RETURNING c.last_seq INTO s;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'no such conversation' USING ERRCODE = 'P0002';
                END IF;
                INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to,
                                      file_id, caption, search)
                VALUES (p_conversation[i], s, p_sender[i], p_client[i], 1, p_text[i], p_time[i], p_reply[i],
                        NULLIF(p_file[i], ''::bytea), p_caption[i], p_search[i]::tsvector);
                o_index := i; o_outcome := 1; o_seq := s;
                RETURN NEXT;
            END LOOP;
        END
        $$
        """,
            // messageai_send behind the send limit (v10's `messageai_send_refusals`), in the same
        // transaction: a message over its sender's limit is outcome 4 with the wait in o_seq,
        // stored nothing and took no seq; the rest go to messageai_send unchanged.
        """
        CREATE FUNCTION messageai_send_limited(p_capacity DOUBLE PRECISION, p_window BIGINT,
                                               p_conversation BIGINT[], p_sender BIGINT[], p_client BYTEA[], p_text TEXT[],
                                               p_time BIGINT[], p_reply BIGINT[], p_file BYTEA[], p_caption TEXT[],
                                               p_search TEXT[], p_confirm BOOLEAN[])
        RETURNS TABLE (o_index INT, o_outcome SMALLINT, o_seq BIGINT)
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
            RETURN QUERY SELECT i, 4::smallint, refused[i] FROM generate_series(1, n) i WHERE refused[i] > 0;
            SELECT array_agg(i ORDER BY i) INTO keep FROM generate_series(1, n) i WHERE refused[i] = 0;
            IF keep IS NULL THEN RETURN; END IF;
            RETURN QUERY SELECT keep[r.o_index], r.o_outcome, r.o_seq FROM messageai_send(
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
