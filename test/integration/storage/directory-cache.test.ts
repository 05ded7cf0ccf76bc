import type { RoutingKey } from '../../../src/core/ports/routing-reads';
import { type Database, openDatabase } from '../../../src/storage/database';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T7 (issue 34): what only the directory commands write is kept by the process, checked by the
 * workspace's directory version in the same message: a second read sends none of it, a change
 * made by another process (another data source on the same database; PGlite, one process's
 * engine, by the same store, which never tells its cache either) is seen by the very next read,
 * a write of the message path bumps nothing, and one workspace never sees another's (A2).
 */
describe.each(DATABASE_KINDS)('the directory cache on %s', (kind) => {
  let db: TestDatabase;
  let other: Database | null = null;
  let acme: SeededWorkspace;
  let globex: SeededWorkspace;
  let messages: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    globex = await seedWorkspace(db.database.store, 'globex');
    if (kind === 'postgres') other = await openDatabase({ databaseUrl: db.databaseUrl, dbDir: '' });
    recordMessages(db.database.dataSource, (query) => void messages.push(readable(query)));
  });
  afterAll(async () => {
    await other?.close();
    await db.dispose();
  });

  /** `summon apply`'s side: another process's store (PostgreSQL), the same one (PGlite). */
  const applying = () => other?.store ?? db.database.store;

  const turnRead = (seeded: SeededWorkspace, asWorkspace = seeded.workspaceId) =>
    db.database.store.inWorkspace(asWorkspace, (tx) =>
      tx.turnReads.read(
        { id: seeded.runId, workspaceId: seeded.workspaceId, conversationId: seeded.conversationId },
        20,
      ),
    );

  const slackKey = (seeded: SeededWorkspace, slug: string): RoutingKey => ({
    platform: 'slack',
    workspace: { platform: 'slack', externalId: `T-${slug}` },
    channelId: seeded.channelId,
    thread: seeded.threadId,
    senderId: `U-${slug}`,
    mentioned: [],
  });

  const routingRead = (key: RoutingKey) => db.database.store.transaction((tx) => tx.routingReads.read(key));

  const version = async (workspaceId: string) => {
    const [row] = await db.database.store.transaction((tx) =>
      tx.query<{ version: string }>(
        "SELECT xmin::text || ':' || version AS version FROM directory_versions WHERE workspace_id = $1",
        [workspaceId],
      ),
    );
    return row?.version;
  };

  it('T7, T3: a turn’s second read sends the version instead of the workspace, agents and skills, and answers the same', async () => {
    const first = await turnRead(acme);
    messages = [];
    const second = await turnRead(acme);
    expect(second).toEqual(first);
    const sent = messages.join('\n');
    expect(sent).toMatch(/FROM directory_versions/);
    expect(sent).not.toMatch(/SELECT \* FROM agents/);
    expect(sent).not.toMatch(/SELECT \* FROM skills/);
    expect(sent).not.toMatch(/SELECT \* FROM workspaces/);
    // Still one message: the claim's reads and the version go together.
    expect(messages.filter((m) => m.includes('directory_versions'))).toHaveLength(1);
  });

  it('T7, T3: routing’s second read sends the version instead of the workspace, binding, agents and access groups', async () => {
    const key = slackKey(acme, 'acme');
    const first = await routingRead(key);
    messages = [];
    expect(await routingRead(key)).toEqual(first);
    const sent = messages.join('\n');
    expect(sent).toMatch(/FROM directory_versions/);
    expect(sent).not.toMatch(/SELECT \* FROM agents/);
    expect(sent).not.toMatch(/FROM access_groups/);
    expect(sent).not.toMatch(/SELECT \* FROM channel_bindings/);
  });

  it('T7, A4: an agent another process adds, then removes, is in the very next turn read, then gone', async () => {
    await turnRead(acme);
    const added = await applying().transaction((tx) =>
      tx.agents.insert(acme.workspaceId, agentFields('newbie')),
    );
    expect((await turnRead(acme)).agents.map((a) => a.name)).toContain('newbie');
    await applying().transaction((tx) => tx.query('DELETE FROM agents WHERE id = $1', [added.id]));
    const after = await turnRead(acme);
    expect(after.agents.map((a) => a.name)).not.toContain('newbie');
    expect(after.agents.map((a) => a.id)).toContain(acme.agentId);
  });

  it('T7, T3: a claim’s reads (its COMMIT in their message) that find the version moved read again in a transaction of their own', async () => {
    const claimRead = () =>
      db.database.store.inWorkspace(acme.workspaceId, (tx) => {
        tx.commitWithNextMessage();
        return tx.turnReads.read(
          { id: acme.runId, workspaceId: acme.workspaceId, conversationId: acme.conversationId },
          20,
        );
      });
    await claimRead();
    await applying().transaction((tx) => tx.agents.update(acme.agentId, { title: 'Reader again' }));
    messages = [];
    const after = await claimRead();
    expect(after.agents.find((a) => a.id === acme.agentId)?.title).toBe('Reader again');
    expect(after.workspace?.id).toBe(acme.workspaceId);
    // The claim's message with its COMMIT, then START … the version and the cached reads … COMMIT.
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/COMMIT$/);
    expect(messages[1]).toMatch(
      /^START TRANSACTION READ ONLY;.*FROM directory_versions.*SELECT \* FROM agents.*COMMIT$/s,
    );
    expect(messages[1]).not.toMatch(/FROM messages/);
  });

  it('T7, P8, P24: an access group another process removes is gone from the very next routing', async () => {
    const key = slackKey(acme, 'acme');
    await applying().transaction((tx) =>
      tx.accessGroups.replace(acme.workspaceId, [
        { group: { platform: 'slack', kind: 'everyone' }, role: 'member' },
      ]),
    );
    expect((await routingRead(key)).access).toHaveLength(1);
    expect((await routingRead(key)).access).toHaveLength(1);
    await applying().transaction((tx) => tx.accessGroups.replace(acme.workspaceId, []));
    expect((await routingRead(key)).access).toEqual([]);
  });

  it('T7, P1: a channel binding another process removes is gone from the very next routing', async () => {
    const key = slackKey(globex, 'globex');
    expect((await routingRead(key)).binding?.channelId).toBe(globex.channelId);
    await routingRead(key);
    await applying().transaction((tx) =>
      tx.query('DELETE FROM channel_bindings WHERE platform = $1 AND channel_id = $2', [
        'slack',
        globex.channelId,
      ]),
    );
    const after = await routingRead(key);
    expect(after.binding).toBeNull();
    expect(after.space).toBeNull();
    await applying().transaction((tx) => tx.channelBindings.bind(globex.spaceId, 'slack', globex.channelId));
    expect((await routingRead(key)).binding?.channelId).toBe(globex.channelId);
  });

  it('T7: the message path’s writes (members admitted, messages, runs, conversations, participants) bump no version', async () => {
    const before = await version(acme.workspaceId);
    expect(before).toBeDefined();
    await db.database.store.inWorkspace(acme.workspaceId, async (tx) => {
      const walkIn = await tx.members.insert(acme.workspaceId, {
        nickname: 'walk-in',
        role: 'member',
        slackUserId: 'U-walk-in',
        discordUserId: null,
      });
      await tx.spaces.addParticipant(acme.spaceId, { kind: 'member', memberId: walkIn.id });
      await tx.query("UPDATE runs SET status = 'succeeded', finished_at = now() WHERE id = $1", [acme.runId]);
      await tx.query("UPDATE messages SET platform_message_ref = 'ref-1' WHERE id = $1", [acme.messageId]);
      await tx.query('UPDATE conversations SET title = $1 WHERE id = $2', ['renamed', acme.conversationId]);
      await tx.query('UPDATE spaces SET name = name WHERE id = $1', [acme.spaceId]);
    });
    expect(await version(acme.workspaceId)).toBe(before);
    // What `summon apply` writes does.
    await applying().transaction((tx) => tx.agents.update(acme.agentId, { title: 'Lead' }));
    const applied = await version(acme.workspaceId);
    expect(applied).not.toBe(before);
    // A2: a tenant's write bumps its own workspace too (the trigger's function passes row-level security).
    await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.agents.update(acme.agentId, { title: 'Lead 2' }),
    );
    expect(await version(acme.workspaceId)).not.toBe(applied);
    expect(await version(globex.workspaceId)).toBeDefined();
  });

  it('T7, A2: one workspace never gets another’s cached rows', async () => {
    const [a, g] = [await turnRead(acme), await turnRead(globex)];
    const [a2, g2] = [await turnRead(acme), await turnRead(globex)];
    expect(a2).toEqual(a);
    expect(g2).toEqual(g);
    expect(a.workspace?.id).toBe(acme.workspaceId);
    expect(g.workspace?.id).toBe(globex.workspaceId);
    expect(a.agents.every((agent) => agent.workspaceId === acme.workspaceId)).toBe(true);
    expect(g.agents.every((agent) => agent.workspaceId === globex.workspaceId)).toBe(true);
    // Globex's tenant asking for acme's run while acme's entries are kept: row-level security
    // hides acme's version row, so nothing kept for acme is served.
    const crossed = await turnRead(acme, globex.workspaceId);
    expect(crossed.workspace).toBeNull();
    expect(crossed.agents).toEqual([]);
    expect(crossed.skills).toEqual([]);
  });
});
