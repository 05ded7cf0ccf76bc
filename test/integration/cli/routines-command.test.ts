import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const FILE = `workspace: acme
spaces:
  - name: ops
    participants: [qa, engineer]
    routines:
      - { name: nightly, agent: qa, prompt: "Summarize the night", schedule: "0 9 * * 1-5", timezone: Europe/Prague }
      - { name: status, agent: engineer, prompt: "Look", webhook: true }
`;

const KEY = Buffer.alloc(32, 7).toString('base64');

/** W1, W5: `summon apply` with routines and `summon routines` on an embedded database. */
describe('summon routines (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  const summon = (...argv: string[]) =>
    runSummon(argv, { env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent' }, cwd: dataDir.path });
  const withKey = (...argv: string[]) =>
    runSummon(argv, {
      env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent', SUMMON_SECRET_KEY: KEY },
      cwd: dataDir.path,
    });
  const write = async (name: string, text: string) => {
    const file = path.join(dataDir.path, name);
    await writeFile(file, text);
    return file;
  };

  beforeAll(async () => {
    dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
  });
  afterAll(() => dataDir.remove());

  it('W1 summon apply refuses a bad routine naming the field, and writes nothing', async () => {
    const bad = await write('bad.yaml', FILE.replace('0 9 * * 1-5', '0 25 * * *'));
    const result = await summon('apply', bad);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'spaces[0].routines[0].schedule: is not a valid cron expression (Invalid value for hour: 25)',
    );
    expect((await summon('routines', 'list', '-w', 'acme')).stderr).toMatch(/no workspace "acme"/);
  });

  it('W5, O4 lists routines with their next time and last result; pause, resume, run and delete, each audited', async () => {
    expect((await summon('apply', await write('ok.yaml', FILE))).code).toBe(0);
    const listed = await summon('routines', 'list', '-w', 'acme');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ROUTINE\s+AGENT\s+TRIGGER\s+NEXT\s+LAST$/);
    expect(lines[1]).toMatch(
      /^ops\/nightly\s+qa\s+on weekdays at 09:00 \(Europe\/Prague\)\s+\d{4}-\d\d-\d\dT0[78]:00:00\.000Z\s+never fired$/,
    );
    expect(lines[2]).toMatch(/^ops\/status\s+engineer\s+on a signed webhook\s+-\s+never fired$/);

    expect((await summon('routines', 'pause', 'ops/nightly', '-w', 'acme')).stdout).toBe(
      'Routine ops/nightly paused; it fires nothing until resumed.\n',
    );
    expect((await summon('routines', 'list', 'ops', '-w', 'acme')).stdout).toMatch(
      /ops\/nightly .* paused\s+never fired/,
    );
    expect((await summon('routines', 'run', 'ops/nightly', '-w', 'acme')).stderr).toMatch(
      /Routine ops\/nightly is paused; resume it first/,
    );
    expect((await summon('routines', 'resume', 'ops/nightly', '-w', 'acme')).stdout).toMatch(
      /^Routine ops\/nightly resumed; next at \d{4}-/,
    );
    expect((await summon('routines', 'run', 'ops/status', '-w', 'acme')).stdout).toBe(
      'Routine ops/status is due now: a process that runs turns fires it within half a minute.\n',
    );
    expect((await summon('routines', 'list', '-w', 'acme')).stdout).toMatch(
      /ops\/status\s+engineer\s+on a signed webhook\s+\d{4}-/,
    );
    expect((await summon('routines', 'delete', 'ops/status', '-w', 'acme')).stdout).toBe(
      'Routine ops/status deleted.\n',
    );
    const missing = await summon('routines', 'delete', 'ops/status', '-w', 'acme');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/There is no routine "ops\/status" \(routines: ops\/nightly\)/);
    // O4: each change made is recorded, by the operator at the command line; the refused run is not.
    const audit = await summon('audit', '-w', 'acme', '--kind', 'routine_changed', '--json');
    const events = audit.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            actor: string;
            where: string;
            subject: string;
            detail: { change: string };
          },
      );
    expect(events.map((e) => [e.detail.change, e.subject, e.actor, e.where])).toEqual([
      ['pause', 'routine ops/nightly', 'operator', 'cli'],
      ['resume', 'routine ops/nightly', 'operator', 'cli'],
      ['run', 'routine ops/status', 'operator', 'cli'],
      ['delete', 'routine ops/status', 'operator', 'cli'],
    ]);
  });

  it('W5 summon routines secret prints a webhook routine’s secret once and stores it sealed', async () => {
    expect((await summon('apply', await write('ok.yaml', FILE))).code).toBe(0);
    const noKey = await summon('routines', 'secret', 'ops/status', '-w', 'acme');
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toMatch(/set SUMMON_SECRET_KEY first/);
    expect((await withKey('routines', 'secret', 'ops/nightly', '-w', 'acme')).stderr).toMatch(
      /Routine ops\/nightly is not a webhook routine/,
    );
    const made = await withKey('routines', 'secret', 'ops/status', '-w', 'acme');
    expect(made.code).toBe(0);
    const secret = /^(whsec_[A-Za-z0-9_-]{43})$/m.exec(made.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(made.stdout).toContain('/hooks/acme/ops/status');
    // Shown once: another call makes another.
    const again = await withKey('routines', 'secret', 'ops/status', '-w', 'acme');
    expect(again.stdout).not.toContain(secret ?? '?');
    const runtime = await openRuntime(loadConfig({ SUMMON_DATA_DIR: dataDir.path }), silentLogger);
    try {
      const rows = await (runtime.database.store as SqlStore).transaction((tx) =>
        tx.query<{ webhook_secret: string | null }>(
          `SELECT webhook_secret FROM routines WHERE name = 'status'`,
        ),
      );
      expect(rows[0]?.webhook_secret).toMatch(/^v1\./);
      expect(JSON.stringify(rows)).not.toContain('whsec_');
    } finally {
      await runtime.close();
    }
  });
});
