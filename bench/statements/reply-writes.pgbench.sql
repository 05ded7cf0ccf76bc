-- The writes of one instant reply, as Summon's five transactions make them (the inbox row, routing,
-- the claim, the reply with its call, the finish), with none of its reads: a diagnostic of what
-- PostgreSQL does to write a reply, for pgbench, on a database migrated by `summon db migrate`
-- and seeded with the workspace, member, agent and space named below:
--   INSERT INTO workspaces (id, slug, name) VALUES ('00000000-0000-4000-8000-000000000001', 'acme', 'Acme');
--   INSERT INTO members (id, workspace_id, nickname, role) VALUES ('00000000-0000-4000-8000-000000000002',
--     '00000000-0000-4000-8000-000000000001', 'dana', 'owner');
--   INSERT INTO agents (id, workspace_id, name) VALUES ('00000000-0000-4000-8000-000000000003',
--     '00000000-0000-4000-8000-000000000001', 'engineer');
--   INSERT INTO spaces (id, workspace_id, name) VALUES ('00000000-0000-4000-8000-000000000004',
--     '00000000-0000-4000-8000-000000000001', 'general');
-- Run as the owner (no row-level security), one client:
--   PGOPTIONS='-c synchronous_commit=off' pgbench -n -M prepared -c 1 -T 20 \
--     -f bench/statements/reply-writes.pgbench.sql <database>
-- and read the backend's CPU (/proc/<pid>/stat) and pg_current_wal_lsn() around a stretch of it:
-- each run of the script is one reply, five commits (pg_stat_database.xact_commit).
\set n random(1, 999999999)
INSERT INTO inbound_inbox (platform, event_id, thread_key, channel_key, payload) VALUES ('slack', gen_random_uuid()::text, 'slack-C1', 'C1', '{"text":"<@U1> @engineer ping mention"}') RETURNING id AS inbox, event_id AS ev \gset
BEGIN;
INSERT INTO processed_inbound_events (platform, event_id) VALUES ('slack', :ev) ON CONFLICT DO NOTHING;
INSERT INTO platform_channel_cursors (platform, channel_id, parent_channel_id, last_message_id) VALUES ('slack', 'C1', NULL, :n) ON CONFLICT (platform, channel_id) DO UPDATE SET last_message_id = excluded.last_message_id, updated_at = now();
INSERT INTO platform_channel_cursors (platform, channel_id, parent_channel_id, last_message_id) VALUES ('slack', 'C1-' || :ev, 'C1', :n) ON CONFLICT (platform, channel_id) DO UPDATE SET last_message_id = excluded.last_message_id, updated_at = now();
INSERT INTO conversations (workspace_id, space_id, platform, platform_thread_ref, title) VALUES ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000004', 'slack', 'slack-C1-' || :ev, 'ping') RETURNING id AS conv \gset
INSERT INTO messages (workspace_id, conversation_id, author_kind, author_member_id, text, mentions, platform_message_ref) VALUES ('00000000-0000-4000-8000-000000000001', :conv, 'person', '00000000-0000-4000-8000-000000000002', '<@U1> @engineer ping mention', '{"agents":[{"agentId":"00000000-0000-4000-8000-000000000003","name":"engineer"}],"members":[]}', :ev) RETURNING id AS msg \gset
INSERT INTO runs (workspace_id, agent_id, conversation_id, trigger_message_id, started_by_member_id, wake_chain) VALUES ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', :conv, :msg, '00000000-0000-4000-8000-000000000002', ARRAY['00000000-0000-4000-8000-000000000003']::uuid[]) RETURNING id AS run \gset
UPDATE inbound_inbox SET routed_at = now(), outcome = 'accepted', last_error = NULL WHERE id = :inbox;
COMMIT;
BEGIN;
UPDATE runs SET status = 'running', started_at = now(), last_event_at = now() WHERE id = :run;
COMMIT;
BEGIN;
INSERT INTO messages (workspace_id, conversation_id, author_kind, author_agent_id, text) VALUES ('00000000-0000-4000-8000-000000000001', :conv, 'agent', '00000000-0000-4000-8000-000000000003', 'pong mention') RETURNING id AS reply \gset
UPDATE runs SET reply_message_id = :reply WHERE id = :run;
INSERT INTO outbox (workspace_id, platform, lane, kind, payload, status, sending_since) VALUES ('00000000-0000-4000-8000-000000000001', 'slack', 'C1', 'chat.postMessage', '{"channel":"C1","text":"pong mention"}', 'sending', now()) RETURNING id AS ob \gset
COMMIT;
BEGIN;
UPDATE messages SET platform_message_ref = :n WHERE id = :reply;
UPDATE runs SET status = 'succeeded', error = NULL, finished_at = now(), last_event_at = now(), usage_model = 'claude', input_tokens = input_tokens + 10, output_tokens = output_tokens + 2 WHERE id = :run;
UPDATE outbox SET status = 'sent', sent_at = now(), platform_ref = :n, last_error = NULL WHERE id = :ob;
COMMIT;
