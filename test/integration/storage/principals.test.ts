import { ConflictError, NotFoundError, ValidationError } from '../../../src/core/errors';
import type { AgentRecord } from '../../../src/core/model/records';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields } from './workspace-fixture';

describe.each(DATABASE_KINDS)('members, agents and skills on %s', (kind) => {
  let db: TestDatabase;
  let ws: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ws = (await db.database.store.transaction((tx) => tx.workspaces.insert({ slug: 'acme', name: 'Acme' })))
      .id;
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);

  it('stores every A4 attribute of an agent and hands back a plain record', async () => {
    const ceo = await inWs((tx) => tx.agents.insert(ws, agentFields('ceo')));
    const fields = agentFields('Architect', {
      title: 'Architect',
      persona: 'Thinks in diagrams.',
      systemPrompt: 'Prefer small changes.',
      skills: ['Testing', 'review'],
      adapterId: 'openai',
      modelId: 'gpt-5',
      effort: 'high',
      contextSize: 200_000,
      silenceTimeoutMinutes: 240,
      reportsToId: ceo.id,
      avatarUrl: 'https://example.test/a.png',
      command: null,
    });
    const inserted = await inWs((tx) => tx.agents.insert(ws, fields));
    const expected: AgentRecord = {
      ...fields,
      id: inserted.id,
      workspaceId: ws,
      createdAt: inserted.createdAt,
    };
    expect(inserted).toEqual(expected);
    expect(inserted.createdAt).toBeInstanceOf(Date);
    expect(Object.keys(inserted).sort()).toEqual(Object.keys(expected).sort());
    // M4: names resolve case-insensitively.
    expect(await inWs((tx) => tx.agents.findByName(ws, 'ARCHITECT'))).toEqual(expected);
    expect(await inWs((tx) => tx.agents.findByName(ws, 'arch'))).toBeNull();
  });

  it('lists agents in creation order, even when one transaction creates them all (M5)', async () => {
    const names = ['zeta', 'alpha', 'mike', 'bravo', 'yankee', 'echo'];
    const created = await inWs(async (tx) => {
      const out = [];
      for (const name of names) out.push(await tx.agents.insert(ws, agentFields(`order_${name}`)));
      return out;
    });
    const sameInstant = new Set(created.map((a) => a.createdAt.getTime()));
    expect(sameInstant.size).toBe(1);
    const listed = (await inWs((tx) => tx.agents.list(ws)))
      .map((a) => a.name)
      .filter((n) => n.startsWith('order_'));
    expect(listed).toEqual(names.map((n) => `order_${n}`));
  });

  it('refuses a second agent of the same name, whatever its case, with a ConflictError', async () => {
    await inWs((tx) => tx.agents.insert(ws, agentFields('qa')));
    const error = await inWs((tx) => tx.agents.insert(ws, agentFields('QA'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toMatch(/agent with this name already exists/);
  });

  it('updates only the named attributes, and refuses an unknown agent', async () => {
    const agent = await inWs((tx) => tx.agents.insert(ws, agentFields('engineer', { skills: ['a'] })));
    await inWs((tx) => tx.agents.update(agent.id, { title: 'Engineer', skills: ['a', 'b'], modelId: null }));
    const updated = await inWs((tx) => tx.agents.findByName(ws, 'engineer'));
    expect(updated).toEqual({ ...agent, title: 'Engineer', skills: ['a', 'b'] });
    // A patch object that carries more than the port allows cannot move the agent (A2).
    const sneaky = { title: 'x', workspaceId: '00000000-0000-0000-0000-000000000000', id: agent.id };
    await inWs((tx) => tx.agents.update(agent.id, sneaky));
    expect((await inWs((tx) => tx.agents.findByName(ws, 'engineer')))?.workspaceId).toBe(ws);
    await expect(inWs((tx) => tx.agents.update(agent.id, {}))).resolves.toBeUndefined();
    await expect(
      inWs((tx) => tx.agents.update('00000000-0000-4000-8000-000000000000', { title: 'x' })),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(inWs((tx) => tx.agents.update('nonsense', { title: 'x' }))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('enforces the silence watchdog range 1..240 (A4)', async () => {
    for (const minutes of [0, 241]) {
      const error = await inWs((tx) =>
        tx.agents.insert(ws, agentFields(`watchdog_${minutes}`, { silenceTimeoutMinutes: minutes })),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain('ck_agents_silence_timeout');
    }
    const one = await inWs((tx) =>
      tx.agents.insert(ws, agentFields('watchdog_1', { silenceTimeoutMinutes: 1 })),
    );
    expect(one.silenceTimeoutMinutes).toBe(1);
  });

  it('keeps members in creation order, finds them by nickname case-insensitively (M10)', async () => {
    const dana = await inWs((tx) =>
      tx.members.insert(ws, { nickname: 'Dana', role: 'owner', slackUserId: 'U1', discordUserId: null }),
    );
    const eli = await inWs((tx) =>
      tx.members.insert(ws, { nickname: 'eli', role: 'viewer', slackUserId: null, discordUserId: 'D1' }),
    );
    expect(dana).toEqual({
      id: dana.id,
      workspaceId: ws,
      nickname: 'Dana',
      role: 'owner',
      slackUserId: 'U1',
      discordUserId: null,
      githubLogin: null,
      accessVia: null,
      accessViaName: null,
      createdAt: dana.createdAt,
    });
    expect((await inWs((tx) => tx.members.list(ws))).map((m) => m.nickname)).toEqual(['Dana', 'eli']);
    expect(await inWs((tx) => tx.members.findByNickname(ws, 'dANA'))).toEqual(dana);
    await expect(
      inWs((tx) =>
        tx.members.insert(ws, { nickname: 'DANA', role: 'member', slackUserId: null, discordUserId: null }),
      ),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(
      inWs((tx) =>
        tx.members.insert(ws, { nickname: 'fay', role: 'member', slackUserId: 'U1', discordUserId: null }),
      ),
    ).rejects.toThrow(/Slack user is already linked/);
    await inWs((tx) => tx.members.update(eli.id, { role: 'approver', slackUserId: 'U2' }));
    expect(await inWs((tx) => tx.members.findByNickname(ws, 'eli'))).toEqual({
      ...eli,
      role: 'approver',
      slackUserId: 'U2',
    });
    await expect(inWs((tx) => tx.members.update(eli.id, { role: 'king' as never }))).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('finds the member a Slack or Discord account is linked to, in its workspace only (P8)', async () => {
    const [gil, other] = await db.database.store.transaction(async (tx) => [
      await tx.members.insert(ws, {
        nickname: 'gil',
        role: 'member',
        slackUserId: 'UG',
        discordUserId: 'DG',
      }),
      (await tx.workspaces.insert({ slug: 'elsewhere', name: 'Elsewhere' })).id,
    ]);
    expect(await inWs((tx) => tx.members.findByPlatformUser(ws, 'slack', 'UG'))).toEqual(gil);
    expect(await inWs((tx) => tx.members.findByPlatformUser(ws, 'discord', 'DG'))).toEqual(gil);
    // One platform's id is not the other's: a Discord id never matches a Slack account.
    expect(await inWs((tx) => tx.members.findByPlatformUser(ws, 'slack', 'DG'))).toBeNull();
    expect(await inWs((tx) => tx.members.findByPlatformUser(ws, 'discord', 'nobody'))).toBeNull();
    // The same Slack user in another workspace is another member (or none).
    const system = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.transaction(work);
    expect(await system((tx) => tx.members.findByPlatformUser(other, 'slack', 'UG'))).toBeNull();
    expect(await system((tx) => tx.members.findByPlatformUser('nonsense', 'slack', 'UG'))).toBeNull();
  });

  it('keeps skills as a case-insensitive set of names', async () => {
    const skill = await inWs((tx) =>
      tx.skills.insert(ws, { name: 'Testing', description: 'How we test', body: '# Test' }),
    );
    expect(await inWs((tx) => tx.skills.findByName(ws, 'testing'))).toEqual(skill);
    await expect(
      inWs((tx) => tx.skills.insert(ws, { name: 'TESTING', description: '', body: '' })),
    ).rejects.toBeInstanceOf(ConflictError);
    await inWs((tx) => tx.skills.update(skill.id, { body: '# Tests' }));
    expect((await inWs((tx) => tx.skills.list(ws))).map((s) => [s.name, s.description, s.body])).toEqual([
      ['Testing', 'How we test', '# Tests'],
    ]);
  });
});
