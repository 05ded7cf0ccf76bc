import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { ManualClock } from '../../support/manual-clock';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const NOW = new Date('2026-12-01T08:00:00Z');

const WITH_ROUTINES = `workspace: acme
spaces:
  - name: ops
    participants: [qa, engineer]
    routines:
      - { name: nightly, agent: qa, prompt: "Summarize the failures of the night", schedule: "0 9 * * 1-5", timezone: Europe/Prague }
      - { name: once, agent: engineer, prompt: "Tag the release", at: "2026-12-24T09:00:00+01:00", onMissed: skip }
      - { name: status, agent: engineer, prompt: "Look at the status page", webhook: true, budget: { per: day, usd: 2 }, paused: true }
`;

async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe.each(DATABASE_KINDS)('W1 summon apply / export of routines on %s', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let clock: ManualClock;
  let service: WorkspaceService;

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    dataDir = await makeTempDir();
    clock = new ManualClock(NOW);
    service = new WorkspaceService(db.database.store, new FileWorkspaceDirectory(dataDir.path), clock);
  });
  afterEach(async () => {
    await db.dispose();
    await dataDir.remove();
  });

  const stored = () =>
    db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug('acme');
      return workspace === null ? [] : tx.routines.listForWorkspace(workspace.id);
    });

  it('W1 routines are stored with their next time, exported as given; applying the export changes nothing', async () => {
    const report = await service.apply(parseWorkspaceFile(WITH_ROUTINES));
    expect(report.created).toEqual(
      expect.arrayContaining(['routine ops/nightly', 'routine ops/once', 'routine ops/status']),
    );
    const routines = await stored();
    expect(routines.map((r) => [r.name, r.agent, r.space, r.nextDueAt?.toISOString() ?? null])).toEqual([
      // W2: 09:00 in Prague is 08:00 UTC; at 08:00 UTC exactly, the next is the next weekday.
      ['nightly', 'qa', 'ops', '2026-12-02T08:00:00.000Z'],
      ['once', 'engineer', 'ops', '2026-12-24T08:00:00.000Z'],
      ['status', 'engineer', 'ops', null],
    ]);
    const exported = await service.export('acme');
    expect(exported.spaces?.[0]?.routines).toEqual(parseWorkspaceFile(WITH_ROUTINES).spaces?.[0]?.routines);
    expect(await service.apply(exported)).toEqual({ created: [], updated: [] });
  });

  it('W1 a given list replaces the space’s routines; a space without the key keeps them', async () => {
    await service.apply(parseWorkspaceFile(WITH_ROUTINES));
    const kept = await service.apply(parseWorkspaceFile('workspace: acme\nspaces:\n  - name: ops\n'));
    expect(kept).toEqual({ created: [], updated: [] });
    expect((await stored()).map((r) => r.name)).toEqual(['nightly', 'once', 'status']);
    const replaced = await service.apply(
      parseWorkspaceFile(`workspace: acme
spaces:
  - name: ops
    routines:
      - { name: nightly, agent: qa, prompt: "Summarize the failures of the night", schedule: "0 10 * * 1-5", timezone: Europe/Prague }
`),
    );
    expect(replaced.updated).toEqual([
      'routine ops/nightly',
      'routine ops/once (deleted)',
      'routine ops/status (deleted)',
    ]);
    const [nightly] = await stored();
    expect(nightly?.trigger).toEqual({ kind: 'schedule', cron: '0 10 * * 1-5', timezone: 'Europe/Prague' });
    expect(nightly?.nextDueAt?.toISOString()).toBe('2026-12-01T09:00:00.000Z');
  });

  it('W1 an agent not in the space and an `at` in the past are refused by name; nothing is written', async () => {
    await service.apply(parseWorkspaceFile(WITH_ROUTINES));
    const before = await service.export('acme');
    const issues = await issuesOf(
      service.apply(
        parseWorkspaceFile(`workspace: acme
spaces:
  - name: ops
    routines:
      - { name: nightly, agent: librarian, prompt: "Read", schedule: "0 9 * * *" }
      - { name: late, agent: qa, prompt: "Too late", at: "2026-12-01T08:59:00+01:00" }
  - name: fresh
    routines:
      - { name: hook, agent: qa, prompt: "Look", webhook: true }
`),
      ),
    );
    expect(issues).toEqual([
      'spaces[0].routines[0].agent: "librarian" does not take part in space "ops"; add it to the space\'s participants',
      'spaces[0].routines[1].at: 2026-12-01T08:59:00+01:00 is in the past; give a time ahead',
      'spaces[1].routines[0].agent: "qa" does not take part in space "fresh"; add it to the space\'s participants',
    ]);
    expect(await service.export('acme')).toEqual(before);
  });

  it('W1, W3 an `at` that has passed applies again unchanged; resuming counts from now', async () => {
    await service.apply(parseWorkspaceFile(WITH_ROUTINES));
    clock.advance(30 * 24 * 3600_000);
    const exported = await service.export('acme');
    expect(await service.apply(exported)).toEqual({ created: [], updated: [] });
    const nightlyEntry = exported.spaces?.[0]?.routines?.find((r) => r.name === 'nightly');
    if (nightlyEntry === undefined) throw new Error('nightly was exported');
    nightlyEntry.paused = true;
    await service.apply(exported);
    nightlyEntry.paused = false;
    await service.apply(exported);
    const nightly = (await stored()).find((r) => r.name === 'nightly');
    // 30 days on is Dec 31 08:00 UTC (a Thursday); resumed, the next is Jan 1 09:00 Prague.
    expect(nightly?.nextDueAt?.toISOString()).toBe('2027-01-01T08:00:00.000Z');
  });
});
