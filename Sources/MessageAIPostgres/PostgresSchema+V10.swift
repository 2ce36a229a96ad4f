extension PostgresSchema {
    /// v10: the limits every node on the database shares (issue 26; PostgresStore+Limits.swift),
    /// so that three nodes give the send rate, the registrations per address and the login
    /// throttle of one. Counted on the database's clock (`clock_timestamp()`, ms), not the
    /// nodes'. Rows lock in key order (buckets by sender before any conversation row), so two
    /// nodes' batches cannot deadlock on them. Old rows carry when they stop mattering
    /// (`full_at`, `forget_at`) and the event log's purge deletes them.
    static let v10: [String] = [
        """
        CREATE TABLE limit_buckets (
            key     TEXT PRIMARY KEY,               -- 'send:USER', 'register:ADDRESS'
            tokens  DOUBLE PRECISION NOT NULL,
            at      BIGINT NOT NULL,                -- when `tokens` was right
            full_at BIGINT NOT NULL                 -- full again from then: the row says nothing
        )
        """,
        """
        CREATE TABLE login_failures (
            key       TEXT PRIMARY KEY,             -- 'pair:ADDRESS ACCOUNT', 'account:ACCOUNT', 'address:ADDRESS'
            failures  INT NOT NULL,
            last_at   BIGINT NOT NULL,
            forget_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE login_usual (
            account TEXT NOT NULL,
            address TEXT NOT NULL,
            at      BIGINT NOT NULL,
            PRIMARY KEY (account, address)
        )
        """,
        // Takes up to p_wanted tokens; the wait until the next one when it got fewer.
        """
        CREATE FUNCTION messageai_take_tokens(p_key TEXT, p_wanted INT, p_capacity DOUBLE PRECISION, p_window BIGINT,
                                              OUT granted INT, OUT wait BIGINT)
        LANGUAGE plpgsql AS $$
        DECLARE
            rate DOUBLE PRECISION := p_capacity / GREATEST(p_window, 1);
            now_ms BIGINT := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
            have DOUBLE PRECISION;
        BEGIN
            LOOP  -- a purge may delete the row between the insert and the lock: look again
                SELECT LEAST(p_capacity, b.tokens + GREATEST(now_ms - b.at, 0) * rate) INTO have
                FROM limit_buckets b WHERE b.key = p_key FOR UPDATE;
                EXIT WHEN FOUND;
                INSERT INTO limit_buckets (key, tokens, at, full_at) VALUES (p_key, p_capacity, now_ms, now_ms)
                ON CONFLICT (key) DO NOTHING;
            END LOOP;
            granted := LEAST(p_wanted, GREATEST(floor(have), 0)::int);
            have := have - granted;
            UPDATE limit_buckets SET tokens = have, at = now_ms, full_at = now_ms + ceil((p_capacity - have) / rate)::bigint
            WHERE key = p_key;
            wait := CASE WHEN granted < p_wanted THEN GREATEST(ceil((1 - have) / rate)::bigint, 1) ELSE 0 END;
        END
        $$
        """,
        // The send limit for one batch, in the batch's transaction, before the append locks any
        // conversation (buckets in sender order: no deadlock with another node's batch). Cheap
        // path, one statement per sender: its bucket holds a token for each of its messages.
        // Else its resends of stored client ids pass (no new traffic), its new ones take what
        // tokens there are, and its last ones over the limit are refused: the result holds, per
        // message, the wait in ms before the sender's next token (0: not refused), or is NULL
        // when nothing is refused. `messageai_send_limited` (v12) applies it.
        """
        CREATE FUNCTION messageai_send_refusals(p_capacity DOUBLE PRECISION, p_window BIGINT,
                                                p_sender BIGINT[], p_client BYTEA[])
        RETURNS BIGINT[]
        LANGUAGE plpgsql AS $$
        DECLARE
            n INT := coalesce(array_length(p_sender, 1), 0);
            rate DOUBLE PRECISION := p_capacity / GREATEST(p_window, 1);
            now_ms BIGINT := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
            refused BIGINT[];
            senders BIGINT[]; counts INT[];
            who BIGINT; wanted INT; fresh INT; t RECORD; over INT;
        BEGIN
            IF n = 0 THEN RETURN NULL; END IF;
            IF p_sender[1] = ALL (p_sender) THEN  -- one sender (W1's batches): no grouping query
                senders := ARRAY[p_sender[1]]; counts := ARRAY[n];
            ELSE
                SELECT array_agg(g.s ORDER BY g.s), array_agg(g.c ORDER BY g.s) INTO senders, counts
                FROM (SELECT s, count(*)::int AS c FROM unnest(p_sender) s GROUP BY s) g;
            END IF;
            FOR j IN 1 .. array_length(senders, 1) LOOP
                who := senders[j]; wanted := counts[j];
                UPDATE limit_buckets b
                SET tokens = LEAST(p_capacity, b.tokens + GREATEST(now_ms - b.at, 0) * rate) - wanted, at = now_ms,
                    full_at = now_ms + ceil((p_capacity - LEAST(p_capacity, b.tokens + GREATEST(now_ms - b.at, 0) * rate) + wanted) / rate)::bigint
                WHERE b.key = 'send:' || who AND LEAST(p_capacity, b.tokens + GREATEST(now_ms - b.at, 0) * rate) >= wanted;
                CONTINUE WHEN FOUND;
                SELECT count(*)::int INTO fresh FROM generate_series(1, n) i
                WHERE p_sender[i] = who
                  AND NOT EXISTS (SELECT 1 FROM client_ids x WHERE x.user_id = who AND x.client_id = p_client[i]);
                CONTINUE WHEN fresh = 0;
                SELECT * INTO t FROM messageai_take_tokens('send:' || who, fresh, p_capacity, p_window);
                over := fresh - t.granted;
                CONTINUE WHEN over = 0;
                IF refused IS NULL THEN refused := array_fill(0::bigint, ARRAY[n]); END IF;
                FOR i IN REVERSE n .. 1 LOOP
                    EXIT WHEN over = 0;
                    IF p_sender[i] = who AND NOT EXISTS (SELECT 1 FROM client_ids x WHERE x.user_id = who AND x.client_id = p_client[i]) THEN
                        refused[i] := t.wait; over := over - 1;
                    END IF;
                END LOOP;
            END LOOP;
            RETURN refused;
        END
        $$
        """,
    ] + v10Logins
}
