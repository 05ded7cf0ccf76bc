import { NotFoundError } from '../../../src/core/errors';
import type { ParticipantRef } from '../../../src/core/model/records';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(DATABASE_KINDS)('adding one participant to a space on %s (M2)', (kind) => {
  let db: TestDatabase;
  let ws: string;
  let other: { ws: string; agentId: string };
  let agents: string[];
  let memberId: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ({ ws, other, agents, memberId } = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      const globex = await tx.workspaces.insert({ slug: 'globex', name: 'Globex' });
      const agentIds: string[] = [];
      for (const n of [0, 1, 2, 3, 4, 5])
        agentIds.push((await tx.agents.insert(workspace.id, agentFields(`a${n}`))).id);
      return {
        ws: workspace.id,
        other: { ws: globex.id, agentId: (await tx.agents.insert(globex.id, agentFields('theirs'))).id },
        agents: agentIds,
        memberId: (
          await tx.members.insert(workspace.id, {
            nickname: 'dana',
            role: 'owner',
            slackUserId: null,
            discordUserId: null,
          })
        ).id,
      };
    }));
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);
  const agent = (n: number): ParticipantRef => ({ kind: 'agent', agentId: agents[n] ?? '' });
  const newSpace = async (name: string) => (await inWs((tx) => tx.spaces.insert(ws, spaceFields(name)))).id;

  it('appends at the end, and does nothing for a participant already there', async () => {
    const spaceId = await newSpace('append');
    await inWs((tx) => tx.spaces.setParticipants(spaceId, [agent(1), agent(0)]));
    expect(await inWs((tx) => tx.spaces.addParticipant(spaceId, agent(2)))).toBe(true);
    const dana: ParticipantRef = { kind: 'member', memberId };
    expect(await inWs((tx) => tx.spaces.addParticipant(spaceId, dana))).toBe(true);
    expect(await inWs((tx) => tx.spaces.addParticipant(spaceId, agent(0)))).toBe(false);
    expect(await inWs((tx) => tx.spaces.addParticipant(spaceId, dana))).toBe(false);
    expect(await inWs((tx) => tx.spaces.listParticipants(spaceId))).toEqual([
      agent(1),
      agent(0),
      agent(2),
      dana,
    ]);
    // An empty space starts at the first position.
    const empty = await newSpace('empty');
    expect(await inWs((tx) => tx.spaces.addParticipant(empty, agent(3)))).toBe(true);
    expect(await inWs((tx) => tx.spaces.listParticipants(empty))).toEqual([agent(3)]);
  });

  it('refuses an unknown space, and a participant of another workspace (A2)', async () => {
    const spaceId = await newSpace('refusals');
    await expect(inWs((tx) => tx.spaces.addParticipant(MISSING, agent(0)))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(inWs((tx) => tx.spaces.addParticipant('nonsense', agent(0)))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    for (const foreign of [other.agentId, MISSING, 'nonsense']) {
      await expect(
        db.database.store.transaction((tx) =>
          tx.spaces.addParticipant(spaceId, { kind: 'agent', agentId: foreign }),
        ),
      ).rejects.toBeInstanceOf(NotFoundError);
    }
    // Another workspace's session does not see the space at all.
    await expect(
      db.database.store.inWorkspace(other.ws, (tx) =>
        tx.spaces.addParticipant(spaceId, { kind: 'agent', agentId: other.agentId }),
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await inWs((tx) => tx.spaces.listParticipants(spaceId))).toEqual([]);
  });

  it('adds a participant once when concurrent transactions add it together', async () => {
    const spaceId = await newSpace('same');
    const added = await Promise.all(
      Array.from({ length: 6 }, () => inWs((tx) => tx.spaces.addParticipant(spaceId, agent(4)))),
    );
    expect(added.filter(Boolean)).toHaveLength(1);
    expect(await inWs((tx) => tx.spaces.listParticipants(spaceId))).toEqual([agent(4)]);
  });

  it('keeps every participant when concurrent transactions add different ones', async () => {
    const spaceId = await newSpace('different');
    const refs = [0, 1, 2, 3, 4, 5].map(agent);
    const added = await Promise.all(refs.map((ref) => inWs((tx) => tx.spaces.addParticipant(spaceId, ref))));
    expect(added).toEqual(refs.map(() => true));
    const listed = await inWs((tx) => tx.spaces.listParticipants(spaceId));
    expect([...listed].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual(
      [...refs].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
    const positions = await db.database.store.transaction((tx) =>
      tx.query<{ position: number }>(
        'SELECT position FROM space_participants WHERE space_id = $1 ORDER BY 1',
        [spaceId],
      ),
    );
    expect(positions.map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  // PGlite runs one transaction at a time: there, nothing can wait beside another.
  (kind === 'postgres' ? it : it.skip)(
    'adds a participant already there without waiting for a transaction that holds the space (T4, issue 12: mentions of one space route side by side)',
    async () => {
      const spaceId = await newSpace('busy');
      await inWs((tx) => tx.spaces.addParticipant(spaceId, agent(0)));
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // One transaction adds a new participant (taking the space's lock) and stays open until
      // the other has added the one already there: were that one to wait for the lock, neither
      // would end and the test would time out.
      const first = inWs(async (tx) => {
        expect(await tx.spaces.addParticipant(spaceId, agent(1))).toBe(true);
        locked();
        await held;
      });
      await holding;
      expect(await inWs((tx) => tx.spaces.addParticipant(spaceId, agent(0)))).toBe(false);
      release();
      await first;
      expect(await inWs((tx) => tx.spaces.listParticipants(spaceId))).toEqual([agent(0), agent(1)]);
    },
  );
});
