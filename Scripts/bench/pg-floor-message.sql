-- pgbench: one transaction = one message, with the statements the PostgreSQL store runs for a
-- SEND (PostgresStore+Messages.swift): the client id claimed, the seq from the conversation's
-- UPDATE ... RETURNING with the membership/block/reply checks, the message INSERT with its two
-- unique indexes and the GIN search index. The search vector is precomputed, as the server does
-- (the same words as SQLite's index, tokenised in Swift). Client k writes conversation k+1.
\set c :client_id + 1
\set t random(1, 2000000000)
BEGIN;
INSERT INTO client_ids (user_id, client_id, kind, created_at)
    VALUES (:c, decode(md5(random()::text || :t), 'hex'), 1, :t) ON CONFLICT DO NOTHING RETURNING 1;
UPDATE conversations c SET last_seq = c.last_seq + 1, last_activity = GREATEST(c.last_activity, :t)
    WHERE c.id = :c
      AND EXISTS (SELECT 1 FROM members m WHERE m.conversation_id = c.id AND m.user_id = :c)
      AND NOT EXISTS (SELECT 1 FROM direct_pairs d JOIN blocks b
                        ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                        OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                      WHERE d.conversation_id = c.id)
    RETURNING c.last_seq AS seq \gset
INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to, file_id, search)
    VALUES (:c, :seq, :c, decode(md5(:t || 'm' || random()::text), 'hex'), 1,
            '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', :t, 0, NULL,
            '''0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'':1'::tsvector);
END;
