import { mkdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const fixturePath = path.join(__dirname, '../../fixtures/workspaces/acme.yaml');

async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe.each(DATABASE_KINDS)('summon apply / export on %s', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let service: WorkspaceService;
  const acme = async () => parseWorkspaceFile(await readFile(fixturePath, 'utf8'));

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    dataDir = await makeTempDir();
    service = new WorkspaceService(db.database.store, new FileWorkspaceDirectory(dataDir.path));
  });
  afterEach(async () => {
    await db.dispose();
    await dataDir.remove();
  });

  it('creates the workspace, merges the file over the seeded agents and reports what changed', async () => {
    const report = await service.apply(await acme());
    expect(report.created).toEqual([
      'workspace acme',
      'skill testing',
      'member dana',
      'agent alice',
      'agent bob',
      'space backend',
      'guardrail workspace push_to_remote',
      'guardrail agent:alice open_pull_request',
      'guardrail space:backend push_to_remote',
      'guardrail space:backend mcp linear__*',
      'guardrail space:backend mcp linear__list_issues',
    ]);
    const exported = await service.export('acme');
    expect(exported.agents?.map((a) => a.name)).toEqual([
      'ceo',
      'qa',
      'architect',
      'engineer',
      'librarian',
      'alice',
      'bob',
    ]);
    expect(exported.agents?.find((a) => a.name === 'alice')).toEqual({
      name: 'alice',
      title: 'Backend engineer',
      persona: 'Careful and terse.',
      systemPrompt: 'Prefer small pull requests.',
      skills: ['testing'],
      adapter: 'builtin',
      model: 'claude-sonnet-4-6',
      effort: 'medium',
      contextSize: 200000,
      silenceTimeoutMinutes: 10,
      reportsTo: 'ceo',
      avatarUrl: 'https://example.com/alice.png',
    });
    expect(exported.spaces).toEqual([
      {
        name: 'backend',
        context: 'The billing API.',
        mode: 'chat',
        autonomy: 'actWithApproval',
        dedicated: false,
        whileRunning: 'steer',
        participants: ['alice', 'qa', 'dana'],
        repos: ['acme/api'],
        channels: [{ slack: 'C0001' }, { discord: '3001' }],
      },
    ]);
    expect(exported.slack).toEqual({ teamId: 'T0001' });
    expect(exported.discord).toEqual({ guildId: '1000' });
    expect(exported.members).toEqual([
      { nickname: 'dana', role: 'approver', slack: 'U0001', discord: '2001' },
    ]);
    expect(exported.guardrails).toEqual((await acme()).guardrails);
    expect(exported.sandbox).toEqual({ allowedDomains: ['api.example.com', '*.pypi.org'] });
    expect(exported.budgets).toEqual((await acme()).budgets);
  });

  it("P16: a space's whileRunning is applied and exported; a file without it keeps it", async () => {
    await service.apply(await acme());
    const spaceOf = async () => {
      const file = await service.export('acme');
      return file.spaces?.find((s) => s.name === 'backend');
    };
    expect((await spaceOf())?.whileRunning).toBe('steer');
    await service.apply(
      parseWorkspaceFile('workspace: acme\nspaces:\n  - name: backend\n    whileRunning: queue\n'),
    );
    expect((await spaceOf())?.whileRunning).toBe('queue');
    await service.apply(parseWorkspaceFile('workspace: acme\nspaces:\n  - name: backend\n'));
    expect((await spaceOf())?.whileRunning).toBe('queue');
    // A value it does not know is refused by path, with the values it takes.
    const issues = await issuesOf(
      (async () =>
        parseWorkspaceFile('workspace: acme\nspaces:\n  - name: backend\n    whileRunning: later\n'))(),
    );
    expect(issues).toEqual(['spaces[0].whileRunning: must be one of: steer, queue']);
  });

  it('O3: budgets, when given, replace the list; a file without them keeps them; an empty list removes them', async () => {
    await service.apply(await acme());
    const replaced = await service.apply(
      parseWorkspaceFile('workspace: acme\nbudgets: [{ scope: "agent:bob", per: month, tokens: 500 }]\n'),
    );
    expect(replaced.updated).toEqual(['budgets']);
    expect((await service.export('acme')).budgets).toEqual([
      { scope: 'agent:bob', per: 'month', tokens: 500 },
    ]);
    expect(await service.apply(parseWorkspaceFile('workspace: acme\nname: Acme Corp\n'))).toEqual({
      created: [],
      updated: [],
    });
    await service.apply(parseWorkspaceFile('workspace: acme\nbudgets: []\n'));
    expect((await service.export('acme')).budgets).toEqual([]);
    expect(
      await issuesOf(
        service.apply(
          parseWorkspaceFile('workspace: acme\nbudgets: [{ scope: "space:nowhere", per: day, usd: 1 }]\n'),
        ),
      ),
    ).toEqual(['budgets[0].scope: no space named "nowhere"']);
  });

  it('X2: sandbox.allowedDomains, when given, replaces the list; a file without it keeps it', async () => {
    await service.apply(await acme());
    const replaced = await service.apply(
      parseWorkspaceFile(
        'workspace: acme\nsandbox: { allowedDomains: ["*.example.com", "*.example.com"] }\n',
      ),
    );
    expect(replaced.updated).toEqual(['sandbox allowedDomains']);
    expect((await service.export('acme')).sandbox).toEqual({ allowedDomains: ['*.example.com'] });
    expect(await service.apply(parseWorkspaceFile('workspace: acme\nname: Acme Corp\n'))).toEqual({
      created: [],
      updated: [],
    });
    expect((await service.export('acme')).sandbox).toEqual({ allowedDomains: ['*.example.com'] });
    await service.apply(parseWorkspaceFile('workspace: acme\nsandbox: { allowedDomains: [] }\n'));
    expect((await service.export('acme')).sandbox).toEqual({ allowedDomains: [] });
  });

  it('N15, R1: relays carries the switch and the accepted relays, never a key', async () => {
    await service.apply(await acme());
    expect((await service.export('acme')).relays).toEqual({ acceptRemoteAgentPrompts: true, accept: [] });
    const changed = await service.apply(
      parseWorkspaceFile(
        'workspace: acme\nrelays: { acceptRemoteAgentPrompts: false, accept: [{ relay: build-box, level: full }] }\n',
      ),
    );
    expect(changed.updated).toEqual(['relays']);
    const store = db.database.store;
    const acmeId = (await store.transaction((tx) => tx.workspaces.findBySlug('acme')))?.id ?? '';
    await store.inWorkspace(acmeId, (tx) =>
      tx.relays.keyPair(acmeId, () => ({ publicKey: 'PUBLIC-KEY-PEM', privateKey: 'PRIVATE-KEY-PEM' })),
    );
    const exported = await service.export('acme');
    expect(exported.relays).toEqual({
      acceptRemoteAgentPrompts: false,
      accept: [{ relay: 'build-box', level: 'full' }],
    });
    expect(JSON.stringify(exported)).not.toMatch(/KEY-PEM/);
    // A file without `relays` keeps them; a wrong level is refused by path.
    expect((await service.apply(parseWorkspaceFile('workspace: acme\n'))).updated).toEqual([]);
    expect(
      (
        await issuesOf(
          (async () =>
            parseWorkspaceFile(
              'workspace: acme\nrelays: { accept: [{ relay: build-box, level: admin }] }\n',
            ))(),
        )
      ).join('\n'),
    ).toMatch(/relays\.accept\[0\]\.level/);
  });

  it('applying the same file twice changes nothing the second time', async () => {
    await service.apply(await acme());
    const before = await service.export('acme');
    expect(await service.apply(await acme())).toEqual({ created: [], updated: [] });
    expect(await service.export('acme')).toEqual(before);
  });

  it('apply ∘ export is the identity', async () => {
    await service.apply(await acme());
    const exported = await service.export('acme');
    expect(await service.apply(exported)).toEqual({ created: [], updated: [] });
    expect(await service.export('acme')).toEqual(exported);
  });

  it('a second file updates only what it names; lists given for a space replace the old ones', async () => {
    await service.apply(await acme());
    const report = await service.apply(
      parseWorkspaceFile(`
workspace: acme
agents:
  - { name: alice, title: Staff engineer }
  - { name: qa, adapter: openai, model: llama3 }
spaces:
  - { name: backend, participants: [alice], channels: [{ slack: C0002 }] }
guardrails:
  - { scope: workspace, action: push_to_remote, decision: deny }
`),
    );
    expect(report).toEqual({
      created: [],
      updated: ['agent alice', 'agent qa', 'space backend', 'guardrail workspace push_to_remote'],
    });
    const exported = await service.export('acme');
    const alice = exported.agents?.find((a) => a.name === 'alice');
    expect(alice?.title).toBe('Staff engineer');
    expect(alice?.persona).toBe('Careful and terse.'); // left out = kept
    expect(exported.agents?.find((a) => a.name === 'qa')).toMatchObject({
      adapter: 'openai',
      model: 'llama3',
    });
    expect(exported.spaces?.[0]).toMatchObject({ participants: ['alice'], channels: [{ slack: 'C0002' }] });
    expect(exported.members?.map((m) => m.nickname)).toEqual(['dana']); // apply never deletes
  });

  it('writes agent folders with skill links to the skill files (A3, A5)', async () => {
    await service.apply(await acme());
    const root = path.join(dataDir.path, 'acme');
    const aliceMd = await readFile(path.join(root, 'agents/alice/AGENTS.md'), 'utf8');
    expect(aliceMd).toContain('model: claude-sonnet-4-6');
    expect(aliceMd).toContain('## Agent instructions\n\nPrefer small pull requests.');
    expect(await readlink(path.join(root, 'agents/alice/.agents/skills/testing'))).toBe(
      '../../../../skills/testing',
    );
    expect(await readFile(path.join(root, 'agents/alice/.agents/skills/testing/SKILL.md'), 'utf8')).toBe(
      '---\nname: testing\ndescription: How we test\n---\n\nRun npm test before pushing.\n',
    );
    const bobMd = await readFile(path.join(root, 'agents/bob/AGENTS.md'), 'utf8');
    expect(bobMd).toMatch(/reportsTo: alice\nadapter: command\n[\s\S]*command: claude -p/);
  });

  it('a failing folder write rolls back every row change of the apply (A3)', async () => {
    await service.apply(await acme());
    await mkdir(path.join(dataDir.path, 'acme/agents'), { recursive: true });
    await writeFile(path.join(dataDir.path, 'acme/agents/carol'), 'a file where the folder must go');

    const change = parseWorkspaceFile(
      'workspace: acme\nagents: [{ name: carol, title: New }, { name: alice, title: Changed }]\n',
    );
    await expect(service.apply(change)).rejects.toThrow(/EEXIST|ENOTDIR/);

    const exported = await service.export('acme');
    expect(exported.agents?.map((a) => a.name)).not.toContain('carol');
    expect(exported.agents?.find((a) => a.name === 'alice')?.title).toBe('Backend engineer');
  });

  it('refuses a file whose names point at nothing, listing each, and writes nothing', async () => {
    const issues = await issuesOf(
      service.apply(
        parseWorkspaceFile(`
workspace: fresh
agents:
  - { name: alice, reportsTo: nobody, skills: [missing] }
  - { name: x1, reportsTo: x2 }
  - { name: x2, reportsTo: x1 }
spaces:
  - { name: s, participants: [alice, ghost] }
guardrails:
  - { scope: "agent:zed", action: commit, decision: deny }
  - { scope: "space:nope", action: commit, decision: deny }
`),
      ),
    );
    expect(issues).toEqual([
      'agents[0].reportsTo: no agent named "nobody"',
      'agents[0].skills[0]: no skill named "missing"',
      'spaces[0].participants[1]: no agent or member named "ghost"',
      'guardrails[0].scope: no agent named "zed"',
      'guardrails[1].scope: no space named "nope"',
      'agents[1].reportsTo: makes a reporting cycle through "x1"',
      'agents[2].reportsTo: makes a reporting cycle through "x2"',
    ]);
    expect(await db.database.store.transaction((tx) => tx.workspaces.findBySlug('fresh'))).toBeNull();
  });

  it('P1: refuses a Slack team or a channel already bound to another workspace', async () => {
    await service.apply(await acme());
    const issues = await issuesOf(
      service.apply(
        parseWorkspaceFile(`
workspace: other
slack: { teamId: T0001 }
spaces: [{ name: s, channels: [{ discord: "3001" }] }]
`),
      ),
    );
    expect(issues).toEqual([
      'slack.teamId: is already bound to workspace "acme"',
      'spaces[0].channels[0]: is already bound in workspace "acme"',
    ]);
  });
});
