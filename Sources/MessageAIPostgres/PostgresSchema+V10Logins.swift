extension PostgresSchema {
    /// v10's login throttle (the in-memory `LoginThrottle` of one node, in the database):
    /// counters per (address, account), per account and per address; an address the account
    /// logged in from is usual, and from there only the pair's counter applies. The policy's
    /// figures come with each call (p_free: pair, account, address). The rows of one attempt
    /// are locked in key order, so the check and the count are one step on every node.
    static let v10Logins: [String] = [
        """
        CREATE FUNCTION messageai_login_keys(p_account TEXT, p_address TEXT, p_shared BOOLEAN) RETURNS TEXT[]
        LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN p_shared
                THEN ARRAY['account:' || p_account, 'address:' || p_address, 'pair:' || p_address || ' ' || p_account]
                ELSE ARRAY['pair:' || p_address || ' ' || p_account] END
        $$
        """,
        """
        CREATE FUNCTION messageai_login_begin(p_account TEXT, p_address TEXT, p_free INT[], p_max_delay BIGINT, p_forget BIGINT,
                                              OUT wait BIGINT, OUT shared BOOLEAN)
        LANGUAGE plpgsql AS $$
        DECLARE
            now_ms BIGINT := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
            keys TEXT[];
            r RECORD; f INT;
        BEGIN
            shared := NOT EXISTS (SELECT 1 FROM login_usual u WHERE u.account = p_account AND u.address = p_address);
            keys := messageai_login_keys(p_account, p_address, shared);
            wait := 0;
            FOR r IN SELECT l.key, l.failures, l.last_at FROM login_failures l
                     WHERE l.key = ANY(keys) AND l.forget_at > now_ms ORDER BY l.key FOR UPDATE LOOP
                f := CASE WHEN r.key LIKE 'pair:%' THEN p_free[1] WHEN r.key LIKE 'account:%' THEN p_free[2] ELSE p_free[3] END;
                IF r.failures >= f THEN
                    wait := GREATEST(wait, r.last_at + LEAST(p_max_delay, 1000::bigint << LEAST(r.failures - f, 20)) - now_ms);
                END IF;
            END LOOP;
            IF wait > 0 THEN RETURN; END IF;
            wait := 0;
            INSERT INTO login_failures AS l (key, failures, last_at, forget_at)
            SELECT k, 1, now_ms, now_ms + p_forget FROM unnest(keys) k ORDER BY k
            ON CONFLICT (key) DO UPDATE SET failures = CASE WHEN l.forget_at <= now_ms THEN 1 ELSE l.failures + 1 END,
                                            last_at = now_ms, forget_at = now_ms + p_forget;
        END
        $$
        """,
        // p_end: 1 failed (the wait runs from now), 2 no failure after all, 3 succeeded,
        // 4 logged in otherwise (nothing to take back).
        """
        CREATE FUNCTION messageai_login_end(p_account TEXT, p_address TEXT, p_shared BOOLEAN, p_end SMALLINT,
                                            p_forget BIGINT, p_usual INT) RETURNS VOID
        LANGUAGE plpgsql AS $$
        DECLARE
            now_ms BIGINT := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
            keys TEXT[] := messageai_login_keys(p_account, p_address, p_shared);
            pair TEXT := 'pair:' || p_address || ' ' || p_account;
        BEGIN
            PERFORM 1 FROM login_failures l WHERE l.key = ANY(keys) ORDER BY l.key FOR UPDATE;
            IF p_end = 1 THEN
                UPDATE login_failures SET last_at = now_ms, forget_at = now_ms + p_forget WHERE key = ANY(keys);
                RETURN;
            END IF;
            IF p_end IN (2, 3) THEN
                UPDATE login_failures SET failures = failures - 1 WHERE key = ANY(keys);
                DELETE FROM login_failures WHERE key = ANY(keys) AND failures <= 0;
            END IF;
            IF p_end IN (3, 4) THEN
                DELETE FROM login_failures WHERE key = pair;
                INSERT INTO login_usual (account, address, at) VALUES (p_account, p_address, now_ms)
                ON CONFLICT (account, address) DO UPDATE SET at = now_ms;
                DELETE FROM login_usual u WHERE u.account = p_account AND u.address NOT IN
                    (SELECT v.address FROM login_usual v WHERE v.account = p_account ORDER BY v.at DESC LIMIT p_usual);
            END IF;
        END
        $$
        """,
    ]
}
