import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';
import { seedWorkspace } from '../storage/workspace-fixture';

/** RFC 4180, read back: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** O4: `summon audit` on an embedded database holding audit events. */
describe('summon audit (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;

  const summon = (...argv: string[]) =>
    runSummon(argv, { env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent' }, cwd: dataDir.path });

  beforeAll(async () => {
    dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    const runtime = await openRuntime(loadConfig({ SUMMON_DATA_DIR: dataDir.path }), silentLogger);
    try {
      const store = runtime.database.store as SqlStore;
      const acme = await seedWorkspace(store, 'acme');
      const other = await seedWorkspace(store, 'other');
      await store.inWorkspace(acme.workspaceId, async (tx) => {
        await tx.audit.append(acme.workspaceId, {
          kind: 'push_decided',
          actor: { kind: 'agent', id: acme.agentId, name: 'acme_alice' },
          subject: 'push to acme/api, branch "main"\nand a second line',
          where: 'git',
          detail: { decision: 'ask', refs: ['refs/heads/main 1a2b..3c4d'] },
          at: new Date('2026-11-02T10:00:00Z'),
        });
        await tx.audit.append(acme.workspaceId, {
          kind: 'approval_decided',
          actor: { kind: 'member', id: acme.memberId, name: 'acme-dana' },
          subject: 'approval 1 (push_to_remote)',
          where: 'discord',
          detail: { status: 'approved' },
          at: new Date('2026-11-02T10:05:00Z'),
        });
      });
      await store.inWorkspace(other.workspaceId, (tx) =>
        tx.audit.append(other.workspaceId, {
          kind: 'approval_decided',
          actor: { kind: 'member', id: other.memberId, name: 'other-dana' },
          subject: 'approval of another workspace',
          where: 'slack',
        }),
      );
    } finally {
      await runtime.close();
    }
  });
  afterAll(() => dataDir.remove());

  it('O4: --json prints JSON Lines, oldest first, each with at, kind, actor and subject; another workspace not', async () => {
    const result = await summon('audit', '-w', 'acme', '--since', '2026-11-01', '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trim().split('\n');
    // The two events above, then the fixture's own (a member added, now).
    expect(lines).toHaveLength(3);
    const [push, decided, seeded] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(seeded).toMatchObject({ kind: 'member_added', actor: 'operator', where: 'cli' });
    expect(push).toMatchObject({
      at: '2026-11-02T10:00:00.000Z',
      kind: 'push_decided',
      actor: 'acme_alice',
      actorKind: 'agent',
      where: 'git',
      subject: 'push to acme/api, branch "main"\nand a second line',
      detail: { decision: 'ask', refs: ['refs/heads/main 1a2b..3c4d'] },
    });
    expect(decided).toMatchObject({ kind: 'approval_decided', actor: 'acme-dana', where: 'discord' });
    expect(result.stdout).not.toContain('another workspace');
  });

  it('O4: --csv prints a header, then rows quoted as RFC 4180 says', async () => {
    const result = await summon('audit', '-w', 'acme', '--csv', '--since', '2026-11-01');
    expect(result.code).toBe(0);
    const [header, push, decided, ...rest] = parseCsv(result.stdout);
    expect(header).toEqual(['at', 'kind', 'actor', 'actor_kind', 'where', 'subject', 'detail', 'id']);
    expect(push?.slice(0, 7)).toEqual([
      '2026-11-02T10:00:00.000Z',
      'push_decided',
      'acme_alice',
      'agent',
      'git',
      'push to acme/api, branch "main"\nand a second line',
      // jsonb keeps an object's keys shortest first.
      '{"refs":["refs/heads/main 1a2b..3c4d"],"decision":"ask"}',
    ]);
    expect(decided?.[1]).toBe('approval_decided');
    expect(rest.map((row) => row[1])).toEqual(['member_added']);
    // The tricky field as written: quoted, its quotes doubled.
    expect(result.stdout).toContain('"push to acme/api, branch ""main""\nand a second line"');
  });

  it('O4: the default is a table; --kind, --actor and --since narrow it', async () => {
    const table = await summon('audit', '-w', 'acme', '--since', '2026-11-01');
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^AT\s+KIND\s+ACTOR\s+WHERE\s+SUBJECT$/);
    expect(lines[1]).toMatch(
      /^2026-11-02T10:00:00\.000Z\s+push_decided\s+acme_alice\s+git\s+push to acme\/api, branch "main" and a second line$/,
    );
    expect(lines[3]).toMatch(/^\S+Z\s+member_added\s+operator\s+cli\s+member acme-dana$/);
    expect(lines).toHaveLength(4);
    const byKind = await summon('audit', '-w', 'acme', '--kind', 'approval_decided', '--json');
    expect(
      byKind.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).subject),
    ).toEqual(['approval 1 (push_to_remote)']);
    const byActor = await summon('audit', '-w', 'acme', '--actor', '@ACME_ALICE', '--json');
    expect(
      byActor.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).kind),
    ).toEqual(['push_decided']);
    const recent = await summon('audit', '-w', 'acme', '--since', '2026-11-02T10:01:00Z', '--json');
    expect(
      recent.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).kind),
    ).toEqual(['approval_decided', 'member_added']);
  });

  it('O4: P8: a member invited from the CLI is in the log, in the same run of commands', async () => {
    expect((await summon('members', 'invite', 'erin', '-w', 'acme', '--role', 'approver')).code).toBe(0);
    const result = await summon('audit', '-w', 'acme', '--actor', 'operator', '--json');
    const events = result.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { kind: string; subject: string; where: string; detail: { role: string } },
      );
    expect(
      events.filter((e) => e.subject === 'member erin').map((e) => [e.kind, e.where, e.detail.role]),
    ).toEqual([
      ['member_added', 'cli', 'approver'],
      ['member_invited', 'cli', 'approver'],
    ]);
    // The invite code never reaches the log.
    expect(result.stdout).not.toMatch(/[A-Z0-9]{5}-[A-Z0-9]{5}/);
  });

  it('O4: says what is wrong with --kind, --since, two formats at once, or the workspace', async () => {
    expect(await summon('audit', '--kind', 'pushes')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--kind must be one of approval_asked, approval_decided'),
    });
    expect(await summon('audit', '--since', 'last week')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--since must be a date (2026-11-01), a moment'),
    });
    expect(await summon('audit', '--json', '--csv')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Choose one of --json and --csv'),
    });
    expect(await summon('audit', '-w', 'nope')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no workspace "nope"'),
    });
  });
});
