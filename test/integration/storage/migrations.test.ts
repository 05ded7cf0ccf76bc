import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ADAPTER_IDS } from '../../../src/core/model/agent';
import { APPROVAL_ACTIONS } from '../../../src/core/model/approvals/approval-action';
import { AUDIT_ACTOR_KINDS, AUDIT_KINDS, AUDIT_PLACES } from '../../../src/core/model/audit/audit-event';
import { GIT_PUSH_STATUSES } from '../../../src/core/model/git-gateway';
import {
  APPROVAL_STATUSES,
  GUARDRAIL_ACTIONS,
  GUARDRAIL_DECISIONS,
  GUARDRAIL_SCOPE_KINDS,
} from '../../../src/core/model/guardrail';
import { INBOX_OUTCOMES } from '../../../src/core/model/inbox';
import { MCP_CALL_DECISIONS, MCP_CALL_OUTCOMES } from '../../../src/core/model/mcp/mcp-call-record';
import { MEMBER_ROLES } from '../../../src/core/model/member';
import { ACCESS_ROLES } from '../../../src/core/model/members/access-group';
import { AUTHOR_KINDS, NOTE_FOLD_STATES } from '../../../src/core/model/message';
import { BINDABLE_PLATFORMS, PLATFORMS } from '../../../src/core/model/platform';
import { ROUTINE_ON_MISSED } from '../../../src/core/model/routines/routine';
import { FIRING_OUTCOMES } from '../../../src/core/model/routines/routine-firing';
import { RUN_LIVENESS, RUN_STATUSES } from '../../../src/core/model/run';
import { AUTONOMY_LEVELS, SPACE_MODES, WHILE_RUNNING } from '../../../src/core/model/space';
import { STEERING_STATES } from '../../../src/core/model/steering';
import { MIGRATIONS } from '../../../src/storage/migrations';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { schemaObjects } from './schema-inspection';
import { seedWorkspace } from './workspace-fixture';

/** Platform plumbing written before an event is resolved to a workspace: no workspace_id, no RLS. */
const SYSTEM_TABLES = ['processed_inbound_events', 'platform_channel_cursors', 'inbound_inbox'];

const TABLES = [
  'access_groups',
  'agents',
  'approvals',
  'audit_events',
  'channel_bindings',
  'console_sessions',
  'conversation_pull_requests',
  'conversations',
  'directory_versions',
  'git_credentials',
  'git_pushes',
  'guardrail_rules',
  'inbound_inbox',
  'mcp_calls',
  'mcp_conversation_grants',
  'mcp_oauth_clients',
  'mcp_oauth_pending',
  'mcp_oauth_tokens',
  'mcp_server_assignments',
  'mcp_servers',
  'member_invites',
  'member_tokens',
  'members',
  'messages',
  'outbox',
  'platform_bindings',
  'platform_channel_cursors',
  'processed_inbound_events',
  'pull_request_failure_wakes',
  'questions',
  'relay_keys',
  'relay_nonces',
  'relay_offers',
  'relay_pairings',
  'relay_settings',
  'routine_firings',
  'routines',
  'run_checkpoints',
  'run_steering',
  'runs',
  'skills',
  'space_participants',
  'spaces',
  'workspaces',
];

/** Each closed vocabulary of the core and the CHECK constraint that enforces it in the schema. */
const VOCABULARIES: Record<string, readonly string[]> = {
  ck_platform_bindings_platform: BINDABLE_PLATFORMS,
  ck_members_role: MEMBER_ROLES,
  ck_agents_adapter: ADAPTER_IDS,
  ck_spaces_mode: SPACE_MODES,
  ck_spaces_autonomy: AUTONOMY_LEVELS,
  ck_spaces_while_running: WHILE_RUNNING,
  ck_run_steering_state: STEERING_STATES,
  ck_channel_bindings_platform: PLATFORMS,
  ck_conversations_platform: PLATFORMS,
  ck_messages_author_kind: AUTHOR_KINDS,
  ck_messages_note_fold_state: NOTE_FOLD_STATES,
  ck_runs_status: RUN_STATUSES,
  ck_runs_liveness: RUN_LIVENESS,
  ck_guardrail_rules_scope_kind: GUARDRAIL_SCOPE_KINDS,
  ck_guardrail_rules_action: GUARDRAIL_ACTIONS,
  ck_guardrail_rules_decision: GUARDRAIL_DECISIONS,
  ck_approvals_action: APPROVAL_ACTIONS,
  ck_approvals_status: APPROVAL_STATUSES,
  ck_processed_inbound_events_platform: PLATFORMS,
  ck_outbox_platform: PLATFORMS,
  ck_git_pushes_decision: GUARDRAIL_DECISIONS,
  ck_git_pushes_status: GIT_PUSH_STATUSES,
  ck_platform_channel_cursors_platform: PLATFORMS,
  ck_inbound_inbox_platform: PLATFORMS,
  ck_inbound_inbox_outcome: INBOX_OUTCOMES,
  ck_mcp_calls_decision: MCP_CALL_DECISIONS,
  ck_mcp_calls_outcome: MCP_CALL_OUTCOMES,
  ck_access_groups_role: ACCESS_ROLES,
  ck_audit_events_kind: AUDIT_KINDS,
  ck_audit_events_actor_kind: AUDIT_ACTOR_KINDS,
  ck_audit_events_place: AUDIT_PLACES,
  ck_routines_on_missed: ROUTINE_ON_MISSED,
  ck_routine_firings_outcome: FIRING_OUTCOMES,
};

/** The names of the migrations from `first` on, oldest first. */
const namesFrom = (first: string): string[] => {
  const names = MIGRATIONS.map((migration) => migration.name);
  return names.slice(names.indexOf(first));
};

/** Reverts every migration newer than `oldest`, then `oldest` itself, newest first, each by name. */
async function revertThrough(database: { revert(): Promise<string | null> }, oldest: string): Promise<void> {
  const names = MIGRATIONS.map((migration) => migration.name);
  const from = names.indexOf(oldest);
  expect(from).toBeGreaterThanOrEqual(0);
  for (const name of names.slice(from).reverse()) expect(await database.revert()).toBe(name);
}

describe('migration files', () => {
  it('are named {unixMs}-{PascalName}.ts, and every one of them is registered, in order', async () => {
    const files = (await readdir(join(__dirname, '../../../migrations'))).sort();
    for (const file of files) expect(file).toMatch(/^\d{13}-[A-Z][A-Za-z0-9]*\.ts$/);
    const expected = files.map((file) => {
      const [, ms, name] = /^(\d{13})-(\w+)\.ts$/.exec(file) ?? [];
      return `${name}${ms}`;
    });
    expect(MIGRATIONS.map((m) => new m().name)).toEqual(expected);
  });
});

const upDownUp = async (db: TestDatabase) => {
  const names = MIGRATIONS.map((m) => new m().name);
  expect(await db.database.pendingMigrations()).toEqual(names);
  expect(await db.database.migrate()).toEqual(names);
  expect(await db.database.pendingMigrations()).toEqual([]);
  expect((await schemaObjects(db.database.store)).tables).toEqual(TABLES);

  for (const name of [...names].reverse()) expect(await db.database.revert()).toBe(name);
  expect(await db.database.revert()).toBeNull();
  expect(await schemaObjects(db.database.store)).toEqual({
    tables: [],
    sequences: [],
    types: [],
    policies: [],
    functions: [],
  });

  expect(await db.database.migrate()).toEqual(names);
  expect((await schemaObjects(db.database.store)).tables).toEqual(TABLES);
};

describe.each(DATABASE_KINDS)('migrations on %s', (kind) => {
  it('run up, down to nothing, and up again', async () => {
    const db = await openTestDatabase(kind, { migrate: false });
    try {
      await upDownUp(db);
    } finally {
      await db.dispose();
    }
  });
});

describe.each(DATABASE_KINDS)('the migrated schema on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it('leave nothing for TypeORM to change: the entities match the migrated schema', async () => {
    // Expression indexes (lower(name)) are declared in the entities with `synchronize: false`
    // under the migration's names, so the diff can be exactly empty.
    const diff = await db.database.dataSource.driver.createSchemaBuilder().log();
    expect(diff.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('check at commit exactly the foreign keys the entities mark so (TypeORM’s diff ignores it)', async () => {
    const deferred = await db.database.store.transaction((tx) =>
      tx.query<{ name: string }>(
        `SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND condeferrable AND condeferred ORDER BY 1`,
      ),
    );
    const marked = db.database.dataSource.entityMetadatas
      .flatMap((entity) => entity.foreignKeys)
      .filter((key) => key.deferrable === 'INITIALLY DEFERRED')
      .map((key) => key.name)
      .sort();
    expect(marked.length).toBeGreaterThan(0);
    expect(deferred.map((d) => d.name)).toEqual(marked);
  });

  it('enforce exactly the closed vocabularies of the core', async () => {
    const checks = await db.database.store.transaction((tx) =>
      tx.query<{ name: string; definition: string }>(
        `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'c'`,
      ),
    );
    for (const [constraint, vocabulary] of Object.entries(VOCABULARIES)) {
      const definition = checks.find((c) => c.name === constraint)?.definition ?? '';
      const literals = [...definition.matchAll(/'([^']*)'::text/g)].map((m) => m[1]);
      expect({ constraint, values: literals.sort() }).toEqual({ constraint, values: [...vocabulary].sort() });
    }
  });

  it('put every workspace-owned table under row-level security (A2)', async () => {
    const rows = await db.database.store.transaction((tx) =>
      tx.query<{ table: string; rls: boolean; hasWorkspace: boolean; policies: string }>(
        `SELECT c.relname AS table, c.relrowsecurity AS rls,
                EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id'
                          AND a.attnotnull) AS "hasWorkspace",
                (SELECT count(*) FROM pg_policies p WHERE p.tablename = c.relname)::text AS policies
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'migrations'
          ORDER BY 1`,
      ),
    );
    const owned = rows.filter((r) => r.hasWorkspace).map((r) => r.table);
    expect(owned).toEqual(TABLES.filter((t) => t !== 'workspaces' && !SYSTEM_TABLES.includes(t)));
    for (const row of rows) {
      const guarded = !SYSTEM_TABLES.includes(row.table);
      expect({ table: row.table, rls: row.rls, policies: row.policies }).toEqual({
        table: row.table,
        rls: guarded,
        policies: guarded ? '1' : '0',
      });
    }
  });

  it('delete every row of a workspace with the workspace, and nothing of another', async () => {
    const store = db.database.store;
    const doomed = await seedWorkspace(store, 'doomed');
    const kept = await seedWorkspace(store, 'kept');
    const owned = TABLES.filter((t) => t !== 'workspaces' && !SYSTEM_TABLES.includes(t));
    const count = (workspaceId: string) =>
      store.transaction(async (tx) => {
        const counts: Record<string, string> = {};
        for (const table of owned) {
          const [row] = await tx.query<{ n: string }>(
            `SELECT count(*)::text AS n FROM ${table} WHERE workspace_id = $1`,
            [workspaceId],
          );
          counts[table] = row?.n ?? '?';
        }
        return counts;
      });
    const before = await count(kept.workspaceId);
    expect(Object.values(before).every((n) => Number(n) > 0)).toBe(true);
    await store.transaction((tx) => tx.query('DELETE FROM workspaces WHERE id = $1', [doomed.workspaceId]));
    expect(Object.values(await count(doomed.workspaceId)).every((n) => n === '0')).toBe(true);
    expect(await count(kept.workspaceId)).toEqual(before);
  });
});

describe.each(DATABASE_KINDS)('upgrading a database of the first schema on %s', (kind) => {
  it('keeps its rows: runs gain an empty card and reply, notes a fold state', async () => {
    const db = await openTestDatabase(kind);
    try {
      const store = db.database.store;
      const seeded = await seedWorkspace(store, 'old');
      await revertThrough(db.database, 'RunCardsAndReplies1764547200000');
      const columns = async () =>
        (
          await store.transaction((tx) =>
            tx.query<{ name: string }>(
              `SELECT column_name AS name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'runs' ORDER BY ordinal_position`,
            ),
          )
        ).map((c) => c.name);
      expect(await columns()).not.toContain('status_card_ref');
      const deferred = async () =>
        (
          await store.transaction((tx) =>
            tx.query<{ name: string }>(
              `SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND condeferred ORDER BY 1`,
            ),
          )
        ).map((c) => c.name);
      // Down restored the first schema's immediate checks.
      expect(await deferred()).toEqual([]);
      // A note as the first schema allowed it: no fold state, mentions in the old default.
      const [legacy] = await store.transaction((tx) =>
        tx.query<{ id: string }>(
          `INSERT INTO messages (workspace_id, conversation_id, author_kind, text, is_note)
           VALUES ($1, $2, 'agent', 'old note', true) RETURNING id`,
          [seeded.workspaceId, seeded.conversationId],
        ),
      );

      expect(await db.database.migrate()).toEqual(namesFrom('RunCardsAndReplies1764547200000'));
      expect(await columns()).toEqual(expect.arrayContaining(['status_card_ref', 'reply_message_id']));
      // O3: an old run has used nothing; an old workspace has no budgets.
      expect(await columns()).toEqual(expect.arrayContaining(['input_tokens', 'cost_usd', 'usage_model']));
      expect(
        await store.inWorkspace(seeded.workspaceId, (tx) =>
          tx.usage.spent(seeded.workspaceId, { since: new Date(0) }),
        ),
      ).toEqual({ tokens: 0, usd: 0 });
      expect((await store.transaction((tx) => tx.workspaces.findById(seeded.workspaceId)))?.budgets).toEqual(
        [],
      );
      expect(await deferred()).toContain('fk_messages_note_run');
      const run = await store.transaction((tx) => tx.runs.findById(seeded.runId));
      expect(run).toMatchObject({
        id: seeded.runId,
        status: 'running',
        statusCardRef: null,
        replyMessageId: null,
      });
      const note = await store.transaction((tx) => tx.messages.findById(legacy?.id ?? ''));
      expect(note).toMatchObject({ text: 'old note', mentions: { agents: [], members: [] } });
      expect(note?.note?.foldState).toBe('auto');
      // P13: a message stored before attachments were recorded has none.
      expect(note?.attachments).toBeUndefined();
      expect((await store.transaction((tx) => tx.messages.findById(seeded.messageId)))?.text).toContain(
        'fix',
      );
    } finally {
      await db.dispose();
    }
  });
});

describe.each(DATABASE_KINDS)('upgrading a database without the agent tools on %s', (kind) => {
  it('N13: a question stored before gains no options and stays pending, then reads back as a record', async () => {
    const db = await openTestDatabase(kind);
    try {
      const store = db.database.store;
      const seeded = await seedWorkspace(store, 'old');
      await revertThrough(db.database, 'AgentTools1764979200000');
      const [old] = await store.transaction((tx) =>
        tx.query<{ id: string }>(
          `INSERT INTO questions (workspace_id, run_id, conversation_id, text)
           VALUES ($1, $2, $3, 'CSV or JSON?') RETURNING id`,
          [seeded.workspaceId, seeded.runId, seeded.conversationId],
        ),
      );
      expect(await db.database.migrate()).toEqual(namesFrom('AgentTools1764979200000'));
      const question = await store.transaction((tx) => tx.questions.findById(old?.id ?? ''));
      expect(question).toMatchObject({ text: 'CSV or JSON?', options: [], status: 'pending' });
      const answered = await store.transaction((tx) =>
        tx.questions.answer(old?.id ?? '', {
          text: 'JSON',
          answeredByMemberId: null,
          answeredByAgentId: null,
          answeredAt: new Date(),
        }),
      );
      expect(answered).toMatchObject({ status: 'answered', answer: 'JSON' });
      // N13: the first answer wins; a second finds it no longer pending.
      expect(
        await store.transaction((tx) =>
          tx.questions.answer(old?.id ?? '', {
            text: 'CSV',
            answeredByMemberId: null,
            answeredByAgentId: null,
            answeredAt: new Date(),
          }),
        ),
      ).toBeNull();
    } finally {
      await db.dispose();
    }
  });
});
