import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';
import { seedWorkspace } from '../storage/workspace-fixture';

/** O3: `summon usage` on an embedded database holding runs with usage. */
describe('summon usage (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;

  const summon = async (...argv: string[]) => {
    return runSummon(argv, {
      env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent' },
      cwd: dataDir.path,
    });
  };

  beforeAll(async () => {
    dataDir = await makeTempDir();
    // O3's report, not making the database: it starts migrated.
    await seedMigratedDataDir(dataDir.path);
    const runtime = await openRuntime(loadConfig({ SUMMON_DATA_DIR: dataDir.path }), silentLogger);
    try {
      const store = runtime.database.store as SqlStore;
      const seeded = await seedWorkspace(store, 'acme');
      await store.inWorkspace(seeded.workspaceId, async (tx) => {
        // Two model calls of the member's run on a priced model.
        const call = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 300, cacheWriteTokens: 0 };
        await tx.usage.addToRun(seeded.runId, { model: 'claude-sonnet-4-6', usage: call, costUsd: 0.006 });
        await tx.usage.addToRun(seeded.runId, { model: 'claude-sonnet-4-6', usage: call, costUsd: 0.006 });
      });
      // A run the agent started itself, on a local model without a price, and one from long ago.
      await store.transaction(async (tx) => {
        const [agentRun] = await tx.query<{ id: string }>(
          `INSERT INTO runs (workspace_id, agent_id, conversation_id, status, started_by_agent_id, started_at)
           VALUES ($1, $2, $3, 'succeeded', $2, now()) RETURNING id`,
          [seeded.workspaceId, seeded.agentId, seeded.conversationId],
        );
        const [oldRun] = await tx.query<{ id: string }>(
          `INSERT INTO runs (workspace_id, agent_id, conversation_id, status, started_by_member_id, started_at, created_at)
           VALUES ($1, $2, $3, 'succeeded', $4, '2020-01-02T00:00:00Z', '2020-01-02T00:00:00Z') RETURNING id`,
          [seeded.workspaceId, seeded.agentId, seeded.conversationId, seeded.memberId],
        );
        const local = { inputTokens: 50, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
        await tx.usage.addToRun(agentRun?.id ?? '', { model: 'llama3.2', usage: local, costUsd: undefined });
        await tx.usage.addToRun(oldRun?.id ?? '', { model: 'claude-sonnet-4-6', usage: local, costUsd: 1 });
      });
    } finally {
      await runtime.close();
    }
  });
  afterAll(() => dataDir.remove());

  it('O3: prints this month by agent by default, with totals', async () => {
    const result = await summon('usage', '-w', 'acme');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^usage of workspace acme since \d{4}-\d{2}-01T00:00:00\.000Z by agent$/);
    expect(lines[1]).toMatch(/^AGENT\s+RUNS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+TOKENS\s+COST$/);
    expect(lines[2]?.split(/\s{2,}/)).toEqual([
      'acme_alice',
      '2',
      '2,050',
      '405',
      '600',
      '0',
      '3,055',
      '$0.01',
    ]);
    expect(lines[3]).toMatch(
      /^total 3,055 tokens, \$0\.01 \(list prices of \d{4}-\d{2}-\d{2}; "-": no price/,
    );
  });

  it('O3: groups by member (an agent-started run apart) and by space; --since reaches back', async () => {
    const byMember = await summon('usage', '-w', 'acme', '--by', 'member');
    const rows = byMember.stdout
      .trim()
      .split('\n')
      .slice(2, 4)
      .map((l) => l.split(/\s{2,}/));
    expect(rows).toEqual([
      ['acme-dana', '1', '2,000', '400', '600', '0', '3,000', '$0.01'],
      ['(an agent)', '1', '50', '5', '0', '0', '55', '-'],
    ]);
    const bySpace = await summon('usage', '-w', 'acme', '--by', 'space', '--since', '2019-12-31', '--json');
    expect(JSON.parse(bySpace.stdout)).toEqual({
      since: '2019-12-31T00:00:00.000Z',
      by: 'space',
      rows: [
        {
          name: 'acme-backend',
          runs: 3,
          usage: { inputTokens: 2100, outputTokens: 410, cacheReadTokens: 600, cacheWriteTokens: 0 },
          costUsd: 1.012,
        },
      ],
    });
    expect((await summon('usage', '-w', 'acme', '--since', '7d')).stdout).toMatch(/3,055 tokens/);
  });

  it('O3: says what is wrong with --by, --since or the workspace', async () => {
    expect(await summon('usage', '--by', 'team')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--by must be agent, space or member, got "team"'),
    });
    expect(await summon('usage', '--since', 'last week')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        '--since must be a date (2026-11-01) or a number of days (7d), got "last week"',
      ),
    });
    expect(await summon('usage', '-w', 'nope')).toMatchObject({
      code: 1,
      stderr: 'no workspace "nope"; create it with `summon workspace create nope`\n',
    });
    expect((await summon('usage', '--help')).stdout).toMatch(/^Usage: summon usage/);
  });
});
