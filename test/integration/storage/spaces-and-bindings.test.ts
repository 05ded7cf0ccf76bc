import { ConflictError, NotFoundError } from '../../../src/core/errors';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

describe.each(DATABASE_KINDS)('workspaces, spaces and bindings on %s', (kind) => {
  let db: TestDatabase;
  let ws: string;
  let other: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    [ws, other] = await db.database.store.transaction(async (tx) => [
      (await tx.workspaces.insert({ slug: 'acme', name: 'Acme' })).id,
      (await tx.workspaces.insert({ slug: 'globex', name: 'Globex' })).id,
    ]);
  });
  afterAll(() => db.dispose());

  const system = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.transaction(work);
  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);

  it('creates, finds, lists and renames workspaces; slugs are unique', async () => {
    const acme = await system((tx) => tx.workspaces.findBySlug('acme'));
    expect(acme).toEqual({
      id: ws,
      slug: 'acme',
      name: 'Acme',
      allowedDomains: [],
      budgets: [],
      createdAt: expect.any(Date),
    });
    expect(await system((tx) => tx.workspaces.findById(ws))).toEqual(acme);
    expect(await system((tx) => tx.workspaces.findById('nonsense'))).toBeNull();
    expect((await system((tx) => tx.workspaces.list())).map((w) => w.slug)).toEqual(['acme', 'globex']);
    await expect(system((tx) => tx.workspaces.insert({ slug: 'acme', name: 'Again' }))).rejects.toThrow(
      'A workspace with this slug already exists.',
    );
    await inWs((tx) => tx.workspaces.rename(ws, 'Acme Inc.'));
    expect((await system((tx) => tx.workspaces.findById(ws)))?.name).toBe('Acme Inc.');
  });

  it('binds a Slack team to one workspace and replaces the workspace’s earlier team (P1)', async () => {
    const first = await system((tx) => tx.platformBindings.bind(ws, 'slack', 'T1'));
    expect(first).toEqual({ id: expect.any(String), workspaceId: ws, platform: 'slack', externalId: 'T1' });
    expect(await system((tx) => tx.platformBindings.bind(ws, 'slack', 'T1'))).toEqual(first);
    await system((tx) => tx.platformBindings.bind(ws, 'discord', 'G1'));
    await system((tx) => tx.platformBindings.bind(ws, 'slack', 'T2'));
    expect(
      (await system((tx) => tx.platformBindings.listForWorkspace(ws))).map(
        (b) => `${b.platform}:${b.externalId}`,
      ),
    ).toEqual(['discord:G1', 'slack:T2']);
    expect(await system((tx) => tx.platformBindings.find('slack', 'T1'))).toBeNull();
    await expect(system((tx) => tx.platformBindings.bind(other, 'slack', 'T2'))).rejects.toThrow(
      'This Slack team is already bound to another workspace.',
    );
    expect((await system((tx) => tx.platformBindings.find('slack', 'T2')))?.workspaceId).toBe(ws);
  });

  it('stores spaces with their mode, autonomy and repos; names are unique case-insensitively', async () => {
    const backend = await inWs((tx) =>
      tx.spaces.insert(
        ws,
        spaceFields('Backend', {
          mode: 'plan',
          autonomy: 'actFreely',
          dedicated: true,
          repos: ['acme/api', 'acme/web'],
        }),
      ),
    );
    expect(backend).toEqual({
      id: backend.id,
      workspaceId: ws,
      name: 'Backend',
      context: '',
      mode: 'plan',
      autonomy: 'actFreely',
      dedicated: true,
      repos: ['acme/api', 'acme/web'],
      // P16: a space steers a running turn unless told to queue.
      whileRunning: 'steer',
      createdAt: expect.any(Date),
    });
    expect(await inWs((tx) => tx.spaces.findByName(ws, 'backend'))).toEqual(backend);
    await expect(inWs((tx) => tx.spaces.insert(ws, spaceFields('BACKEND')))).rejects.toBeInstanceOf(
      ConflictError,
    );
    await inWs((tx) => tx.spaces.update(backend.id, { context: 'The API.', repos: [] }));
    expect(await inWs((tx) => tx.spaces.findByName(ws, 'Backend'))).toEqual({
      ...backend,
      context: 'The API.',
      repos: [],
    });
    await inWs((tx) => tx.spaces.insert(ws, spaceFields('Frontend')));
    expect((await inWs((tx) => tx.spaces.list(ws))).map((s) => s.name)).toEqual(['Backend', 'Frontend']);
  });

  it('replaces a space’s participants with exactly the given ones, in order', async () => {
    const { space, agents, member } = await inWs(async (tx) => ({
      space: await tx.spaces.insert(ws, spaceFields('Participants')),
      agents: [
        await tx.agents.insert(ws, agentFields('p_one')),
        await tx.agents.insert(ws, agentFields('p_two')),
      ],
      member: await tx.members.insert(ws, {
        nickname: 'pat',
        role: 'member',
        slackUserId: null,
        discordUserId: null,
      }),
    }));
    const [one, two] = agents;
    if (!one || !two) throw new Error('agents missing');
    const list = [
      { kind: 'agent' as const, agentId: two.id },
      { kind: 'member' as const, memberId: member.id },
      { kind: 'agent' as const, agentId: one.id },
    ];
    await inWs((tx) => tx.spaces.setParticipants(space.id, list));
    expect(await inWs((tx) => tx.spaces.listParticipants(space.id))).toEqual(list);
    await inWs((tx) =>
      tx.spaces.setParticipants(
        space.id,
        [list[2], list[0]].filter((p) => p !== undefined),
      ),
    );
    expect(await inWs((tx) => tx.spaces.listParticipants(space.id))).toEqual([list[2], list[0]]);
    await expect(
      inWs((tx) =>
        tx.spaces.setParticipants(
          space.id,
          [list[0], list[0]].filter((p) => p !== undefined),
        ),
      ),
    ).rejects.toThrow('An agent appears twice among the participants of the space.');
    // The failed call rolled back: the previous list stands.
    expect(await inWs((tx) => tx.spaces.listParticipants(space.id))).toEqual([list[2], list[0]]);
    await inWs((tx) => tx.spaces.setParticipants(space.id, []));
    expect(await inWs((tx) => tx.spaces.listParticipants(space.id))).toEqual([]);
    await expect(
      inWs((tx) => tx.spaces.setParticipants('00000000-0000-4000-8000-000000000000', [])),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('binds a channel to one space, moves it within the workspace, refuses another workspace’s (P1)', async () => {
    const [a, b] = await inWs(async (tx) => [
      await tx.spaces.insert(ws, spaceFields('Chan A')),
      await tx.spaces.insert(ws, spaceFields('Chan B')),
    ]);
    const foreign = await db.database.store.inWorkspace(other, (tx) =>
      tx.spaces.insert(other, spaceFields('Theirs')),
    );
    if (!a || !b) throw new Error('spaces missing');
    const bound = await inWs((tx) => tx.channelBindings.bind(a.id, 'slack', 'C1'));
    expect(bound).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      spaceId: a.id,
      platform: 'slack',
      channelId: 'C1',
    });
    const moved = await inWs((tx) => tx.channelBindings.bind(b.id, 'slack', 'C1'));
    expect(moved).toEqual({ ...bound, spaceId: b.id });
    expect(await inWs((tx) => tx.channelBindings.find('slack', 'C1'))).toEqual(moved);
    // The same channel id on another platform is another channel.
    await inWs((tx) => tx.channelBindings.bind(a.id, 'discord', 'C1'));
    for (const store of [
      () => system((tx) => tx.channelBindings.bind(foreign.id, 'slack', 'C1')),
      () => db.database.store.inWorkspace(other, (tx) => tx.channelBindings.bind(foreign.id, 'slack', 'C1')),
    ]) {
      await expect(store()).rejects.toThrow('This channel is already bound to a space of another workspace.');
    }
    expect((await system((tx) => tx.channelBindings.find('slack', 'C1')))?.spaceId).toBe(b.id);

    await inWs(async (tx) => {
      await tx.channelBindings.bind(b.id, 'slack', 'C2');
      await tx.channelBindings.bind(b.id, 'discord', 'D3');
      await tx.channelBindings.unbindOthers(b.id, [{ platform: 'slack', channelId: 'C2' }]);
    });
    expect(
      (await inWs((tx) => tx.channelBindings.listForWorkspace(ws))).map(
        (c) => `${c.platform}:${c.channelId}→${c.spaceId === a.id ? 'a' : 'b'}`,
      ),
    ).toEqual(['discord:C1→a', 'slack:C2→b']);
    await inWs((tx) => tx.channelBindings.unbindOthers(b.id, []));
    expect((await inWs((tx) => tx.channelBindings.listForWorkspace(ws))).map((c) => c.channelId)).toEqual([
      'C1',
    ]);
  });
});
