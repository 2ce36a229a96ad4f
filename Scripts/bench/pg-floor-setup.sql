-- The pgbench floor of issue 25, on the server's own schema: a database the server migrated
-- (bench.sh starts a server on it once), then 8 senders, each the only member of a group of
-- its own, so 8 clients write 8 conversations (no row-lock waits), as in chatbench's pg-floor.
INSERT INTO users (username, username_lower, email, email_lower, display_name, password_hash, created_at)
SELECT 'floor' || g, 'floor' || g, 'floor' || g || '@bench.test', 'floor' || g || '@bench.test', 'Floor', '-', 0
FROM generate_series(1, 8) g;
INSERT INTO conversations (kind, name, created_at, last_activity)
SELECT 2, 'floor' || g, 0, 0 FROM generate_series(1, 8) g;
INSERT INTO members (conversation_id, user_id, joined_at)
SELECT c.id, u.id, 0 FROM conversations c JOIN users u ON u.username = c.name;
VACUUM ANALYZE;
