import fc from 'fast-check';
import type { RoutingKey } from '../../../src/core/ports/routing-reads';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { textLiteral } from '../../../src/storage/store/statements-together';
import { recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3, T4 (issue 12, item 5): what routing reads, sent together in one round trip, is exactly what
 * each repository returns on its own (P1, P8, M10), and text from a platform cannot change the
 * statements it is written into.
 */
describe.each(DATABASE_KINDS)('routing’s reads in one round trip on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  let globex: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    globex = await seedWorkspace(db.database.store, 'globex');
    // A terminal channel of acme's space, to route by slug and nickname.
    await db.database.store.transaction(async (tx) => {
      const [space] = await tx.spaces.list(acme.workspaceId);
      if (space) await tx.channelBindings.bind(space.id, 'terminal', 'local');
    });
  });
  afterAll(() => db.dispose());

  const system = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.transaction(work);

  /** What routing read one repository call at a time before. */
  const oneByOne = (tx: SqlStoreTx, key: RoutingKey) =>
    (async () => {
      const workspace =
        'slug' in key.workspace
          ? await tx.workspaces.findBySlug(key.workspace.slug)
          : await tx.platformBindings
              .find(key.workspace.platform, key.workspace.externalId)
              .then((b) => (b === null ? null : tx.workspaces.findById(b.workspaceId)));
      const binding = await tx.channelBindings.find(key.platform, key.channelId);
      const spaces = workspace === null ? [] : await tx.spaces.list(workspace.id);
      const space = spaces.find((s) => s.id === binding?.spaceId) ?? null;
      const sender =
        workspace === null
          ? null
          : key.platform === 'terminal'
            ? await tx.members.findByNickname(workspace.id, key.senderId)
            : await tx.members.findByPlatformUser(workspace.id, key.platform, key.senderId);
      return {
        workspace,
        binding,
        space,
        sender,
        agents: workspace === null ? [] : await tx.agents.list(workspace.id),
        // M10: only the members whose nickname starts with a mentioned token (case ignored).
        members:
          workspace === null
            ? []
            : (await tx.members.list(workspace.id)).filter((m) =>
                key.mentioned.some((prefix) => m.nickname.toLowerCase().startsWith(prefix)),
              ),
        conversation: await tx.conversations.findByThread(key.platform, key.thread),
        participants: binding === null ? [] : await tx.spaces.listParticipants(binding.spaceId),
        // P24: the workspace's access list, read with the rest.
        access: workspace === null ? [] : await tx.accessGroups.listForWorkspace(workspace.id),
      };
    })();

  const slackKey = (seeded: SeededWorkspace, overrides: Partial<RoutingKey> = {}): RoutingKey => ({
    platform: 'slack',
    workspace: { platform: 'slack', externalId: `T-${seeded === acme ? 'acme' : 'globex'}` },
    channelId: seeded.channelId,
    thread: seeded.threadId,
    senderId: `U-${seeded === acme ? 'acme' : 'globex'}`,
    mentioned: ['acme'],
    ...overrides,
  });

  it('P1, P8: a Slack message in a bound channel: the same workspace, binding, space, sender, agents, members, conversation and participants', async () => {
    const key = slackKey(acme);
    const together = await system((tx) => tx.routingReads.read(key));
    expect(together).toEqual(await system((tx) => oneByOne(tx, key)));
    expect(together.workspace?.id).toBe(acme.workspaceId);
    expect(together.sender?.id).toBe(acme.memberId);
    expect(together.conversation?.id).toBe(acme.conversationId);
    expect(together.participants).toHaveLength(2);
  });

  it('M10: only the members a mention may reach are read: by the start of the nickname, case ignored, oldest first; none when nobody is mentioned', async () => {
    const undone = new Error('rolled back by the test');
    await expect(
      system(async (tx) => {
        for (const nickname of ['Sam', 'samurai', 'sa_m', 'bob', 'sam.x'])
          await tx.members.insert(acme.workspaceId, {
            nickname,
            role: 'member',
            slackUserId: null,
            discordUserId: null,
          });
        const nicknames = async (mentioned: string[]) =>
          (await tx.routingReads.read(slackKey(acme, { mentioned }))).members.map((m) => m.nickname);
        expect(await nicknames(['sam'])).toEqual(['Sam', 'samurai', 'sam.x']);
        // `_` and `%` are the nickname's own characters, not patterns.
        expect(await nicknames(['sa_'])).toEqual(['sa_m']);
        expect(await nicknames(['s%'])).toEqual([]);
        expect(await nicknames(['b', 'acme-dana', 'bo'])).toEqual(['acme-dana', 'bob']);
        expect(await nicknames([])).toEqual([]);
        for (const mentioned of [['sam'], ['zzz'], ['s', 'b'], ['a']]) {
          const key = slackKey(acme, { mentioned });
          expect(await tx.routingReads.read(key)).toEqual(await oneByOne(tx, key));
        }
        // Another workspace's members are never reached.
        expect(await nicknames(['globex'])).toEqual([]);
        throw undone;
      }),
    ).rejects.toBe(undone);
  });

  it('M10: the terminal’s sender by nickname, whatever its case, in the workspace named by slug', async () => {
    const key: RoutingKey = {
      platform: 'terminal',
      workspace: { slug: 'acme' },
      channelId: 'local',
      thread: 'terminal:1',
      senderId: 'ACME-Dana',
      mentioned: ['acme-d'],
    };
    const together = await system((tx) => tx.routingReads.read(key));
    expect(together).toEqual(await system((tx) => oneByOne(tx, key)));
    expect(together.sender?.id).toBe(acme.memberId);
    expect(together.conversation).toBeNull();
  });

  it('P1: a channel bound in another workspace is read as it is (the caller refuses it), its space not', async () => {
    const key = slackKey(acme, { channelId: globex.channelId, senderId: 'U-nobody' });
    const together = await system((tx) => tx.routingReads.read(key));
    expect(together).toEqual(await system((tx) => oneByOne(tx, key)));
    expect(together.binding?.workspaceId).toBe(globex.workspaceId);
    expect(together.space).toBeNull();
    expect(together.sender).toBeNull();
  });

  it('an unknown team, quotes and backslashes in every field: nothing found, nothing changed', async () => {
    const hostile = "x' OR '1'='1\\'; DELETE FROM members; --";
    const key: RoutingKey = {
      platform: 'discord',
      workspace: { platform: 'discord', externalId: hostile },
      channelId: hostile,
      thread: hostile,
      senderId: hostile,
      mentioned: [hostile],
    };
    const together = await system((tx) => tx.routingReads.read(key));
    expect(together).toEqual(await system((tx) => oneByOne(tx, key)));
    expect(together.workspace).toBeNull();
    expect(await system((tx) => tx.members.list(acme.workspaceId))).toHaveLength(1);
    const bySlug = await system((tx) =>
      tx.routingReads.read({ ...key, platform: 'terminal', workspace: { slug: hostile } }),
    );
    expect(bySlug.workspace).toBeNull();
  });

  it('P1, P8: an inbox decoder’s members of a team and whether a channel is bound (in that team’s workspace) match the repositories’, hostile text included', async () => {
    const hostile = "x' OR '1'='1\\'; DELETE FROM members; --";
    const bound = (channelId: string, teamId?: string) =>
      system(async (tx) => {
        const channel = await tx.channelBindings.find('slack', channelId);
        if (channel === null || teamId === undefined) return channel !== null;
        const team = await tx.platformBindings.find('slack', teamId);
        return team !== null && team.workspaceId === channel.workspaceId;
      });
    for (const [channelId, teamId] of [
      [acme.channelId, undefined],
      [acme.channelId, 'T-acme'],
      [acme.channelId, 'T-globex'],
      [globex.channelId, 'T-globex'],
      [hostile, undefined],
      [acme.channelId, hostile],
    ] as const) {
      expect(await system((tx) => tx.routingReads.channelIsBound('slack', channelId, teamId))).toBe(
        await bound(channelId, teamId),
      );
    }
    // M11, P8: only the members a text names, by account or by nickname (case ignored).
    const everyone = await system((tx) => tx.members.list(acme.workspaceId));
    const linked = everyone.filter((m) => m.slackUserId !== null);
    const accounts = [...linked.map((m) => m.slackUserId as string), 'U-nobody'];
    expect(await system((tx) => tx.routingReads.membersOfTeam('slack', 'T-acme', { accounts }))).toEqual(
      linked,
    );
    const nicknames = [...everyone.map((m) => m.nickname.toUpperCase()), 'nobody'];
    expect(await system((tx) => tx.routingReads.membersOfTeam('slack', 'T-acme', { nicknames }))).toEqual(
      everyone,
    );
    expect(await system((tx) => tx.routingReads.membersOfTeam('slack', 'T-acme', { accounts: [] }))).toEqual(
      [],
    );
    expect(await system((tx) => tx.routingReads.membersOfTeam('slack', hostile, { nicknames }))).toEqual([]);
    const globexMember = (await system((tx) => tx.members.list(globex.workspaceId)))[0];
    // Asked together, as a decoder asks them: one message, each its own answer.
    const [members, isBound] = await system((tx) =>
      Promise.all([
        tx.routingReads.membersOfTeam('slack', 'T-globex', {
          nicknames: [globexMember?.nickname ?? '', ...nicknames],
        }),
        tx.routingReads.channelIsBound('slack', acme.channelId, 'T-globex'),
      ]),
    );
    expect(members.map((m) => m.id)).toEqual([globex.memberId]);
    expect(isBound).toBe(false);
  });

  it('textLiteral: any text without a NUL comes back from the database exactly as written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary' }).filter((text) => !text.includes('\0')),
        async (text) => {
          const [row] = await system((tx) => tx.query<{ v: string }>(`SELECT ${textLiteral(text)} AS v`));
          expect(row?.v).toBe(text);
        },
      ),
      { numRuns: 60 },
    );
    expect(() => textLiteral('a\0b')).toThrow(/NUL/);
  });

  describe('T4: the directory remembered for the transaction', () => {
    let messages: string[] = [];
    beforeAll(() => {
      recordMessages(db.database.dataSource, (query) => void messages.push(query));
    });
    beforeEach(() => {
      messages = [];
    });
    const executes = (message: string | undefined) => (message ?? '').split('EXECUTE ').length - 1;
    /** Runs `work` in a transaction that is rolled back, so what it writes touches no other test. */
    const rolledBack = async (work: (tx: SqlStoreTx) => Promise<void>) => {
      const undone = new Error('rolled back by the test');
      await expect(
        system(async (tx) => {
          await work(tx);
          throw undone;
        }),
      ).rejects.toBe(undone);
    };

    it('a second read of the same channel sends only its thread’s conversation, and answers the same', async () => {
      const key = slackKey(acme);
      // T7: the process's cache holds the channel's workspace, binding, agents and access groups.
      await system((tx) => tx.routingReads.read(key));
      messages = [];
      const [first, second, other] = await system(async (tx) => [
        await tx.routingReads.read(key),
        await tx.routingReads.read(key),
        await tx.routingReads.read({ ...key, thread: 'C-acme:2.0' }),
      ]);
      expect(second).toEqual(first);
      expect(other).toEqual({ ...first, conversation: null });
      const reads = messages.filter((m) => m.includes('EXECUTE '));
      // The directory's version and its three statements not cached (T7: space, sender,
      // participants), the conversation and the members the mentions reach; then the conversation alone.
      expect(reads.map(executes)).toEqual([6, 1, 1]);
    });

    it('a participant added in the transaction (M2) is in the next read, as the repositories say', async () => {
      const key = slackKey(acme);
      await rolledBack(async (tx) => {
        const before = await tx.routingReads.read(key);
        const agent = await tx.agents.insert(acme.workspaceId, agentFields('reviewer'));
        await tx.spaces.addParticipant(acme.spaceId, { kind: 'agent', agentId: agent.id });
        const after = await tx.routingReads.read(key);
        expect(after.participants).toHaveLength(before.participants.length + 1);
        expect(after).toEqual(await oneByOne(tx, key));
      });
    });

    it('a member or a channel binding written in the transaction is in the decoder’s next look', async () => {
      await rolledBack(async (tx) => {
        const named = {
          accounts: [
            'U-new',
            ...(await tx.members.list(acme.workspaceId)).flatMap((m) => m.slackUserId ?? []),
          ],
        };
        const before = await tx.routingReads.membersOfTeam('slack', 'T-acme', named);
        expect(await tx.routingReads.channelIsBound('slack', 'C-new', 'T-acme')).toBe(false);
        await tx.members.insert(acme.workspaceId, {
          nickname: 'newcomer',
          role: 'member',
          slackUserId: 'U-new',
          discordUserId: null,
        });
        await tx.channelBindings.bind(acme.spaceId, 'slack', 'C-new');
        const after = await tx.routingReads.membersOfTeam('slack', 'T-acme', named);
        expect(after.map((m) => m.nickname)).toEqual([...before.map((m) => m.nickname), 'newcomer']);
        expect(await tx.routingReads.channelIsBound('slack', 'C-new', 'T-acme')).toBe(true);
      });
    });

    it('what another transaction commits is read by the next transaction', async () => {
      const key = slackKey(acme);
      const before = await system((tx) => tx.routingReads.read(key));
      await system((tx) => tx.spaces.update(acme.spaceId, { dedicated: !before.space?.dedicated }));
      const after = await system((tx) => tx.routingReads.read(key));
      expect(after.space?.dedicated).toBe(!before.space?.dedicated);
      await system((tx) => tx.spaces.update(acme.spaceId, { dedicated: before.space?.dedicated ?? false }));
    });
  });
});
