extension PostgresSchema {
    /// v8 (v7 is the event log's): a batch of SENDs as one function call, so that a group
    /// commit costs one round trip to PostgreSQL instead of `BEGIN`, three statements per
    /// message and `COMMIT` (BENCHMARKS.md, "SQLite beside PostgreSQL": each round trip is
    /// several thread hops in the server, and a batch's statements ran one after another).
    ///
    /// Called as a statement of its own, the call is its own transaction: it commits (and
    /// with `synchronous_commit = on` flushes the WAL) before the answer is sent, so an ack
    /// still follows the commit. Per message, in the order given (the caller sorts by
    /// conversation so that two nodes lock rows in the same order), the statements are those
    /// of PostgresStore+Messages.swift: the client id row first (a resend stops there, before
    /// a seq is taken), the seq by `UPDATE ... RETURNING` under the conversation's row lock,
    /// held to the commit, then the message row. Outcome 1 is stored (with its seq), 2 a
    /// client id already used (the caller reads the original after the commit). A missing
    /// conversation raises P0002 and nothing of the batch is stored. An empty file id is none
    /// (PostgresNIO binds no array of optionals).
    static let v8: [String] = [
        """
        CREATE FUNCTION messageai_append(p_conversation BIGINT[], p_sender BIGINT[], p_client BYTEA[], p_text TEXT[],
                                         p_time BIGINT[], p_reply BIGINT[], p_file BYTEA[], p_caption TEXT[],
                                         p_search TEXT[])
        RETURNS TABLE (o_index INT, o_outcome SMALLINT, o_seq BIGINT)
        LANGUAGE plpgsql AS $$
        DECLARE
            s BIGINT;
        BEGIN
            FOR i IN 1 .. coalesce(array_length(p_conversation, 1), 0) LOOP
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
    ]
}
