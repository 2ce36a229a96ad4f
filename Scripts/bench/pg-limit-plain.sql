-- pgbench: one 1-message batch through messageai_send (v12), as W1 commits; compare pg-limit-limited.sql.
\set c :client_id + 1
\set t random(1, 2000000000)
SELECT * FROM messageai_send(ARRAY[:c]::bigint[], ARRAY[:c]::bigint[], ARRAY[decode(md5(random()::text || :t), 'hex')], ARRAY['0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'], ARRAY[:t]::bigint[], ARRAY[0]::bigint[], ARRAY[''::bytea], ARRAY[''], ARRAY['''0123456789abcdef'':1'], ARRAY[false]);
