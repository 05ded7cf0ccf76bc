import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first schema of Summon: tenants, their principals, spaces, conversations, runs,
 * guardrails and the platform plumbing (de-duplication, outbox).
 *
 * Hand-written SQL, frozen in time: the closed vocabularies are spelled out here rather than
 * imported from `src/core`, so that a later change to the core needs its own migration (the
 * storage tests compare the two).
 *
 * A2: every table that belongs to a workspace carries a non-null `workspace_id`, references
 * its parents through composite (id, workspace_id) foreign keys, so that no row can point
 * into another workspace, and is guarded by a row-level security policy for the
 * `summon_tenant` role that `Store.inWorkspace` switches to.
 */

/** Tables owned by a workspace, in creation order (RLS, grants, and reverse order for `down`). */
const TENANT_TABLES = [
  'platform_bindings',
  'members',
  'agents',
  'skills',
  'spaces',
  'space_participants',
  'channel_bindings',
  'conversations',
  'messages',
  'runs',
  'guardrail_rules',
  'approvals',
  'questions',
  'outbox',
] as const;

/** Tables with a `seq bigserial` creation-order column whose sequence the tenant role uses. */
const SEQUENCED_TENANT_TABLES = TENANT_TABLES.filter((t) => t !== 'space_participants');

/** The current tenant, or NULL outside `Store.inWorkspace` (a set_config local to a transaction reverts to ''). */
const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const CREATE_TABLES = [
  `CREATE TABLE workspaces (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    slug text NOT NULL,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_workspaces PRIMARY KEY (id),
    CONSTRAINT uq_workspaces_slug UNIQUE (slug)
  )`,
  // P1: a Slack team / Discord guild belongs to one workspace; a workspace has one per platform.
  `CREATE TABLE platform_bindings (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    platform text NOT NULL,
    external_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_platform_bindings PRIMARY KEY (id),
    CONSTRAINT fk_platform_bindings_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_platform_bindings_platform CHECK (platform IN ('slack', 'discord')),
    CONSTRAINT uq_platform_bindings_external UNIQUE (platform, external_id),
    CONSTRAINT uq_platform_bindings_workspace_platform UNIQUE (workspace_id, platform)
  )`,
  `CREATE TABLE members (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    nickname text NOT NULL,
    role text NOT NULL,
    slack_user_id text,
    discord_user_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_members PRIMARY KEY (id),
    CONSTRAINT fk_members_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_members_role CHECK (role IN ('owner', 'admin', 'approver', 'member', 'viewer')),
    CONSTRAINT uq_members_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT uq_members_slack_user UNIQUE (workspace_id, slack_user_id),
    CONSTRAINT uq_members_discord_user UNIQUE (workspace_id, discord_user_id)
  )`,
  // M10: nicknames resolve case-insensitively, so they are unique case-insensitively.
  `CREATE UNIQUE INDEX uq_members_nickname ON members (workspace_id, lower(nickname))`,
  `CREATE INDEX ix_members_created ON members (workspace_id, created_at, seq)`,
  // A4: every attribute of an agent.
  `CREATE TABLE agents (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    name text NOT NULL,
    title text NOT NULL DEFAULT '',
    persona text NOT NULL DEFAULT '',
    system_prompt text,
    skills text[] NOT NULL DEFAULT '{}',
    adapter_id text,
    model_id text,
    effort text,
    context_size integer,
    silence_timeout_minutes integer NOT NULL DEFAULT 15,
    reports_to_id uuid,
    avatar_url text,
    command text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_agents PRIMARY KEY (id),
    CONSTRAINT fk_agents_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT uq_agents_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT fk_agents_reports_to FOREIGN KEY (reports_to_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (reports_to_id),
    CONSTRAINT ck_agents_adapter CHECK (adapter_id IN ('builtin', 'openai', 'command')),
    CONSTRAINT ck_agents_silence_timeout CHECK (silence_timeout_minutes BETWEEN 1 AND 240),
    CONSTRAINT ck_agents_context_size CHECK (context_size > 0),
    CONSTRAINT ck_agents_reports_to_self CHECK (reports_to_id <> id)
  )`,
  // M4/M12: names resolve case-insensitively, so they are unique case-insensitively.
  `CREATE UNIQUE INDEX uq_agents_name ON agents (workspace_id, lower(name))`,
  // M5: "earliest-created" is (created_at, seq); seq breaks ties inside one transaction.
  `CREATE INDEX ix_agents_created ON agents (workspace_id, created_at, seq)`,
  `CREATE TABLE skills (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    name text NOT NULL,
    description text NOT NULL DEFAULT '',
    body text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_skills PRIMARY KEY (id),
    CONSTRAINT fk_skills_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
  )`,
  // A4: skills are a case-insensitive set of names.
  `CREATE UNIQUE INDEX uq_skills_name ON skills (workspace_id, lower(name))`,
  `CREATE TABLE spaces (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    name text NOT NULL,
    context text NOT NULL DEFAULT '',
    mode text NOT NULL DEFAULT 'chat',
    autonomy text NOT NULL DEFAULT 'actWithApproval',
    dedicated boolean NOT NULL DEFAULT false,
    repos text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_spaces PRIMARY KEY (id),
    CONSTRAINT fk_spaces_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT uq_spaces_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT ck_spaces_mode CHECK (mode IN ('chat', 'plan', 'review')),
    CONSTRAINT ck_spaces_autonomy CHECK (autonomy IN ('proposeOnly', 'actWithApproval', 'actFreely'))
  )`,
  `CREATE UNIQUE INDEX uq_spaces_name ON spaces (workspace_id, lower(name))`,
  // A participant is an agent or a member, never both; `position` keeps the order they were set in.
  `CREATE TABLE space_participants (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    space_id uuid NOT NULL,
    position integer NOT NULL,
    agent_id uuid,
    member_id uuid,
    CONSTRAINT pk_space_participants PRIMARY KEY (id),
    CONSTRAINT fk_space_participants_space FOREIGN KEY (space_id, workspace_id)
      REFERENCES spaces (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_space_participants_agent FOREIGN KEY (agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_space_participants_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_space_participants_one_principal CHECK (num_nonnulls(agent_id, member_id) = 1),
    CONSTRAINT uq_space_participants_position UNIQUE (space_id, position),
    CONSTRAINT uq_space_participants_agent UNIQUE (space_id, agent_id),
    CONSTRAINT uq_space_participants_member UNIQUE (space_id, member_id)
  )`,
  // P1: a chat channel is bound to at most one space, across every workspace.
  `CREATE TABLE channel_bindings (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    space_id uuid NOT NULL,
    platform text NOT NULL,
    channel_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_channel_bindings PRIMARY KEY (id),
    CONSTRAINT fk_channel_bindings_space FOREIGN KEY (space_id, workspace_id)
      REFERENCES spaces (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_channel_bindings_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT uq_channel_bindings_channel UNIQUE (platform, channel_id)
  )`,
  // P2: one conversation is one platform thread. N4: `created_by_agent_id` marks "via agent".
  `CREATE TABLE conversations (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    space_id uuid NOT NULL,
    platform text NOT NULL,
    platform_thread_ref text,
    title text NOT NULL DEFAULT '',
    owner_agent_id uuid,
    created_by_agent_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_conversations PRIMARY KEY (id),
    CONSTRAINT fk_conversations_space FOREIGN KEY (space_id, workspace_id)
      REFERENCES spaces (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_conversations_owner_agent FOREIGN KEY (owner_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (owner_agent_id),
    CONSTRAINT fk_conversations_created_by_agent FOREIGN KEY (created_by_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (created_by_agent_id),
    CONSTRAINT ck_conversations_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT uq_conversations_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT uq_conversations_thread UNIQUE (platform, platform_thread_ref)
  )`,
  `CREATE TABLE messages (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    author_kind text NOT NULL,
    author_agent_id uuid,
    author_member_id uuid,
    text text NOT NULL,
    mentions jsonb NOT NULL DEFAULT '[]',
    platform_message_ref text,
    is_note boolean NOT NULL DEFAULT false,
    note_sender_agent_id uuid,
    note_sender_relay text,
    note_source_conversation_id uuid,
    note_source_title text,
    note_run_id uuid,
    note_fold_state text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_messages PRIMARY KEY (id),
    CONSTRAINT fk_messages_conversation FOREIGN KEY (conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_messages_author_agent FOREIGN KEY (author_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (author_agent_id),
    CONSTRAINT fk_messages_author_member FOREIGN KEY (author_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (author_member_id),
    CONSTRAINT fk_messages_note_sender_agent FOREIGN KEY (note_sender_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (note_sender_agent_id),
    -- N3: the badge links to the source conversation only while it still exists.
    CONSTRAINT fk_messages_note_source_conversation FOREIGN KEY (note_source_conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE SET NULL (note_source_conversation_id),
    CONSTRAINT uq_messages_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT ck_messages_author_kind CHECK (author_kind IN ('person', 'agent', 'system')),
    -- An author id must match the author kind; it may be null once that principal is deleted.
    CONSTRAINT ck_messages_author CHECK (
      (author_kind = 'agent' OR author_agent_id IS NULL) AND (author_kind = 'person' OR author_member_id IS NULL)
    ),
    CONSTRAINT ck_messages_note_fold_state CHECK (note_fold_state IN ('auto', 'open', 'folded')),
    -- N10: only a note folds.
    CONSTRAINT ck_messages_fold_only_notes CHECK (is_note OR note_fold_state IS NULL)
  )`,
  `CREATE INDEX ix_messages_conversation ON messages (conversation_id, created_at, seq)`,
  // A12: a run keeps status, liveness, its wake chain (M20) and timings.
  `CREATE TABLE runs (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    trigger_message_id uuid,
    status text NOT NULL DEFAULT 'queued',
    liveness text NOT NULL DEFAULT 'ok',
    wake_chain uuid[] NOT NULL DEFAULT '{}',
    depth integer NOT NULL DEFAULT 1,
    started_by_member_id uuid,
    started_by_agent_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz,
    last_event_at timestamptz,
    error text,
    CONSTRAINT pk_runs PRIMARY KEY (id),
    CONSTRAINT fk_runs_agent FOREIGN KEY (agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_runs_conversation FOREIGN KEY (conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_runs_started_by_member FOREIGN KEY (started_by_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (started_by_member_id),
    CONSTRAINT fk_runs_started_by_agent FOREIGN KEY (started_by_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (started_by_agent_id),
    CONSTRAINT uq_runs_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT ck_runs_status CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    CONSTRAINT ck_runs_liveness CHECK (liveness IN ('ok', 'blocked', 'stalled', 'looping', 'failed', 'dead')),
    CONSTRAINT ck_runs_depth CHECK (depth >= 0),
    CONSTRAINT ck_runs_started_by CHECK (num_nonnulls(started_by_member_id, started_by_agent_id) <= 1)
  )`,
  // A12: the newest runs per agent decide its live status.
  `CREATE INDEX ix_runs_agent_recent ON runs (agent_id, created_at DESC, seq DESC)`,
  `CREATE INDEX ix_runs_conversation ON runs (conversation_id)`,
  // The two tables reference each other: a run is triggered by a message; a note names its run.
  `ALTER TABLE runs ADD CONSTRAINT fk_runs_trigger_message FOREIGN KEY (trigger_message_id, workspace_id)
    REFERENCES messages (id, workspace_id) ON DELETE SET NULL (trigger_message_id)`,
  `ALTER TABLE messages ADD CONSTRAINT fk_messages_note_run FOREIGN KEY (note_run_id, workspace_id)
    REFERENCES runs (id, workspace_id) ON DELETE SET NULL (note_run_id)`,
  // G1: one rule per (scope, action); a workspace rule has no scope id (NULLS NOT DISTINCT, PG15).
  `CREATE TABLE guardrail_rules (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    scope_kind text NOT NULL,
    scope_id uuid,
    action text NOT NULL,
    decision text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_guardrail_rules PRIMARY KEY (id),
    CONSTRAINT fk_guardrail_rules_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_guardrail_rules_scope_kind CHECK (scope_kind IN ('workspace', 'agent', 'space')),
    CONSTRAINT ck_guardrail_rules_scope_id CHECK ((scope_kind = 'workspace') = (scope_id IS NULL)),
    CONSTRAINT ck_guardrail_rules_action CHECK (
      action IN ('commit', 'push_to_remote', 'open_pull_request', 'tracker_write', 'network')
    ),
    CONSTRAINT ck_guardrail_rules_decision CHECK (decision IN ('allow', 'ask', 'deny')),
    CONSTRAINT uq_guardrail_rules_scope_action UNIQUE NULLS NOT DISTINCT (workspace_id, scope_kind, scope_id, action)
  )`,
  // G4: an approval card; pending approvals survive a restart and expire (counting as denied).
  `CREATE TABLE approvals (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    action text NOT NULL,
    details jsonb NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'pending',
    decided_by_member_id uuid,
    requested_at timestamptz NOT NULL DEFAULT now(),
    decided_at timestamptz,
    expires_at timestamptz NOT NULL,
    platform_card_ref text,
    CONSTRAINT pk_approvals PRIMARY KEY (id),
    CONSTRAINT fk_approvals_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_approvals_decided_by FOREIGN KEY (decided_by_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (decided_by_member_id),
    CONSTRAINT ck_approvals_action CHECK (
      action IN ('commit', 'push_to_remote', 'open_pull_request', 'tracker_write', 'network')
    ),
    CONSTRAINT ck_approvals_status CHECK (status IN ('pending', 'approved', 'denied', 'expired'))
  )`,
  `CREATE INDEX ix_approvals_pending ON approvals (status, expires_at)`,
  // N13: a question card waits in the conversation; a person or an agent may answer it.
  `CREATE TABLE questions (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    text text NOT NULL,
    status text NOT NULL DEFAULT 'pending',
    answer text,
    answered_by_member_id uuid,
    answered_by_agent_id uuid,
    platform_card_ref text,
    created_at timestamptz NOT NULL DEFAULT now(),
    answered_at timestamptz,
    CONSTRAINT pk_questions PRIMARY KEY (id),
    CONSTRAINT fk_questions_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_questions_conversation FOREIGN KEY (conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_questions_answered_by_member FOREIGN KEY (answered_by_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (answered_by_member_id),
    CONSTRAINT fk_questions_answered_by_agent FOREIGN KEY (answered_by_agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE SET NULL (answered_by_agent_id),
    CONSTRAINT ck_questions_status CHECK (status IN ('pending', 'answered', 'cancelled')),
    CONSTRAINT ck_questions_answered_by CHECK (num_nonnulls(answered_by_member_id, answered_by_agent_id) <= 1)
  )`,
  // P6/P11: one platform event is handled once. Not owned by a workspace: it is checked before
  // the event is resolved to one, in the system context.
  `CREATE TABLE processed_inbound_events (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    platform text NOT NULL,
    event_id text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_processed_inbound_events PRIMARY KEY (id),
    CONSTRAINT ck_processed_inbound_events_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT uq_processed_inbound_events_event UNIQUE (platform, event_id)
  )`,
  `CREATE INDEX ix_processed_inbound_events_received ON processed_inbound_events (received_at)`,
  // P7: no outgoing message is lost; a sender drains this table and honours Retry-After.
  `CREATE TABLE outbox (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    conversation_id uuid,
    platform text NOT NULL,
    kind text NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0,
    available_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    platform_ref text,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_outbox PRIMARY KEY (id),
    CONSTRAINT fk_outbox_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_outbox_conversation FOREIGN KEY (conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_outbox_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT ck_outbox_status CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    CONSTRAINT ck_outbox_attempts CHECK (attempts >= 0)
  )`,
  `CREATE INDEX ix_outbox_due ON outbox (status, available_at, seq)`,
];

/**
 * A2: the role that `Store.inWorkspace` switches to. Roles are cluster-wide: another database
 * (a concurrent test run, another deployment) may create it at the same moment, which surfaces
 * as duplicate_object or as a unique_violation on pg_authid.
 */
const CREATE_TENANT_ROLE = `DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'summon_tenant') THEN
    CREATE ROLE summon_tenant NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END
$$`;

/** SET ROLE needs membership unless the connecting user is a superuser (superusers pass pg_has_role). */
const JOIN_TENANT_ROLE = `DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'summon_tenant', 'MEMBER') THEN
    GRANT summon_tenant TO CURRENT_USER;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END
$$`;

const schemaGrant = (verb: 'GRANT' | 'REVOKE') => `DO $$
BEGIN
  EXECUTE format('${verb} USAGE ON SCHEMA %I ${verb === 'GRANT' ? 'TO' : 'FROM'} summon_tenant', current_schema());
END
$$`;

const tenantSecurity = (): string[] => [
  CREATE_TENANT_ROLE,
  JOIN_TENANT_ROLE,
  schemaGrant('GRANT'),
  // A tenant reads and renames its own workspace; creating one is a system action.
  'GRANT SELECT, UPDATE ON workspaces TO summon_tenant',
  'ALTER TABLE workspaces ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON workspaces USING (id = ${CURRENT_WORKSPACE}) WITH CHECK (id = ${CURRENT_WORKSPACE})`,
  ...TENANT_TABLES.flatMap((table) => [
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
  ]),
  ...SEQUENCED_TENANT_TABLES.map((table) => `GRANT USAGE ON SEQUENCE ${table}_seq_seq TO summon_tenant`),
];

export class InitialSchema1764460800000 implements MigrationInterface {
  readonly name = 'InitialSchema1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...CREATE_TABLES, ...tenantSecurity()]) await queryRunner.query(sql);
  }

  /**
   * Drops every table (with its policies, grants and sequences) and the schema grant. The
   * `summon_tenant` role stays: it is cluster-wide, other databases on the same server may
   * use it (dropping it would fail while they hold grants, or pull it from under them), and a
   * NOLOGIN role with no privileges in this database grants nothing here.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    // The only cycle (runs <-> messages): break it before dropping the tables in reverse order.
    await queryRunner.query('ALTER TABLE messages DROP CONSTRAINT fk_messages_note_run');
    const tables = ['workspaces', ...TENANT_TABLES, 'processed_inbound_events'];
    for (const table of tables.reverse()) await queryRunner.query(`DROP TABLE ${table}`);
    await queryRunner.query(schemaGrant('REVOKE'));
  }
}
