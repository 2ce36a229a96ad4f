-- pgbench: the same batch through messageai_send_limited (v10's shared send limit around v12's messageai_send; a bucket of 1e9 so nothing is refused).
\set c :client_id + 1
\set t random(1, 2000000000)
SELECT * FROM messageai_send_limited(1000000000::float8, 60000, ARRAY[:c]::bigint[], ARRAY[:c]::bigint[], ARRAY[decode(md5(random()::text || :t), 'hex')], ARRAY['0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'], ARRAY[:t]::bigint[], ARRAY[0]::bigint[], ARRAY[''::bytea], ARRAY[''], ARRAY['''0123456789abcdef'':1'], ARRAY[false]);
