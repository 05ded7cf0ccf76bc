import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';
import { seedWorkspace } from '../storage/workspace-fixture';

/** P24: `summon members list` shows each person's role and how they got it. */
describe('summon members list (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  const summon = (...argv: string[]) =>
    runSummon(argv, { env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent' }, cwd: dataDir.path });

  beforeAll(async () => {
    dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    const runtime = await openRuntime(loadConfig({ SUMMON_DATA_DIR: dataDir.path }), silentLogger);
    try {
      const store = runtime.database.store as SqlStore;
      const seeded = await seedWorkspace(store, 'acme');
      await store.inWorkspace(seeded.workspaceId, (tx) =>
        tx.members.insert(seeded.workspaceId, {
          nickname: 'ada',
          role: 'approver',
          slackUserId: null,
          discordUserId: '123456789012345678',
          accessVia: 'discord:role:223456789012345678',
          accessViaName: 'maintainers',
        }),
      );
    } finally {
      await runtime.close();
    }
  });
  afterAll(() => dataDir.remove());

  it('P24: an entry, and a person admitted by a role, named by name and id', async () => {
    const result = await summon('members', 'list', '--workspace', 'acme');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/@acme-dana\s+\w+\s+entry/);
    expect(result.stdout).toMatch(/@ada\s+approver\s+via @maintainers \(discord:role:223456789012345678\)/);
  });

  it('P24: --json gives the same, as data', async () => {
    const result = await summon('members', 'list', '--workspace', 'acme', '--json');
    const listed = JSON.parse(result.stdout) as { nickname: string; via: unknown }[];
    expect(listed.find((m) => m.nickname === 'ada')?.via).toEqual({
      kind: 'group',
      group: 'discord:role:223456789012345678',
      name: 'maintainers',
    });
    expect(listed.find((m) => m.nickname === 'acme-dana')?.via).toEqual({ kind: 'entry' });
  });

  it('P24: an unknown workspace is refused with a sentence', async () => {
    const result = await summon('members', 'list', '--workspace', 'nope');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('There is no workspace "nope"');
  });
});
