import { createLogger } from '../../../src/app/logger';
import { openRuntime } from '../../../src/app/runtime';
import { runCli } from '../../../src/cli/main';
import { loadConfig } from '../../../src/config/config';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';
import { seedWorkspace } from '../storage/workspace-fixture';

describe('summon gateway status', () => {
  it('lists pushes waiting for approval and the recent decisions', async () => {
    const dir = await makeTempDir();
    // The command's listing, not making the database: it starts migrated.
    await seedMigratedDataDir(dir.path);
    const env = { SUMMON_DATA_DIR: dir.path, LOG_LEVEL: 'silent', GITHUB_TOKEN: 'ghs_cliSecret' };
    const runtime = await openRuntime(loadConfig(env, dir.path), createLogger({ level: 'silent' }));
    try {
      const seeded = await seedWorkspace(runtime.store as SqlStore, 'acme');
      await runtime.store.transaction((tx) =>
        tx.gitPushes.insert(seeded.workspaceId, {
          runId: seeded.runId,
          repo: 'acme/api',
          updates: [{ oldId: 'a'.repeat(40), newId: 'b'.repeat(40), ref: 'refs/heads/feature' }],
          decision: 'ask',
          status: 'waiting',
          approvalId: seeded.approvalId,
          reason: 'push to acme/api feature',
        }),
      );
    } finally {
      await runtime.close();
    }
    let stdout = '';
    const code = await runCli(['gateway', 'status'], {
      output: {
        out: (t) => {
          stdout += `${t}\n`;
        },
        err: () => {},
      },
      env,
      cwd: dir.path,
    });
    await dir.remove();
    expect(code).toBe(0);
    expect(stdout).toContain('Git gateway: upstream https://github.com');
    expect(stdout).toContain('Waiting for approval: 1');
    expect(stdout).toMatch(/acme\/api\s+feature bbbbbbb\s+[0-9a-f-]{36}/);
    expect(stdout).toContain('Recent decisions: 2');
    expect(stdout).toMatch(/acme\/api\s+main 2222222\s+ask\s+forwarded\s+approved by the owner/);
    expect(stdout).not.toContain('ghs_cliSecret');
  });
});
