import { admittedMemberId } from '../../../src/core/members/admitted-member';
import { nicknameCandidates } from '../../../src/core/members/admitted-nickname';
import type { RoutingKey } from '../../../src/core/ports/routing-reads';
import { ADMIT_MEMBER, ADMIT_MEMBERS } from '../../../src/storage/store/repositories/member-repository';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * P24, M10, T3: an admitted person's member record, made by `summon_admit_member` with the
 * transaction's next message from the base nickname and the account's: the first free of the
 * base, the base numbered on the server (`base-2` … `base-16`, cut to 39 characters), the
 * account's, one made of the id when all are taken; one record for two first messages at once.
 */
describe.each(DATABASE_KINDS)('P24: an admitted member made with the next message on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    recordMessages(db.database.dataSource, (query) => void messages.push(query));
  });
  /** Every message the store sent (one logged query is one message). */
  let messages: string[] = [];
  afterAll(() => db.dispose());

  const system = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.transaction(work);
  const admit = (tx: SqlStoreTx, discordUserId: string, base: string, account = `discord-${discordUserId}`) =>
    tx.members.admitOwed(
      acme.workspaceId,
      {
        id: admittedMemberId(acme.workspaceId, 'discord', discordUserId),
        role: 'member',
        slackUserId: null,
        discordUserId,
        accessVia: 'discord:role:1',
        accessViaName: 'contributors',
      },
      { base, account },
    );
  const stored = (discordUserId: string) =>
    system((tx) => tx.members.findByPlatformUser(acme.workspaceId, 'discord', discordUserId));
  /** Explicit members holding `nicknames`. */
  const taken = (nicknames: readonly string[]) =>
    system(async (tx) => {
      for (const nickname of nicknames)
        await tx.members.insert(acme.workspaceId, {
          nickname,
          role: 'member',
          slackUserId: null,
          discordUserId: null,
        });
    });

  it('M10: the base when free; taken by an explicit member (case ignored), the base numbered on the server: base-2', async () => {
    await system(async (tx) => {
      await admit(tx, '100', 'ada');
      await admit(tx, '101', 'acme-dana');
      // Read in the same transaction: the owed call went first, and routing's remembered reads forgot.
      const member = await tx.members.findByPlatformUser(acme.workspaceId, 'discord', '101');
      expect(member).toMatchObject({ nickname: 'acme-dana-2', role: 'member', accessVia: 'discord:role:1' });
    });
    expect((await stored('100'))?.nickname).toBe('ada');
    await taken(['Pat']);
    await system((tx) => admit(tx, '106', 'pat'));
    expect((await stored('106'))?.nickname).toBe('pat-2');
  });

  it('M10: the base and base-2 … base-16 taken: the account’s nickname; it taken too: one made of the id', async () => {
    await taken([...nicknameCandidates('lou', 16), 'discord-108']);
    await system((tx) => admit(tx, '107', 'lou'));
    expect((await stored('107'))?.nickname).toBe('discord-107');
    await system((tx) => admit(tx, '108', 'lou'));
    const id = admittedMemberId(acme.workspaceId, 'discord', '108');
    expect((await stored('108'))?.nickname).toBe(`m-${id.replaceAll('-', '')}`);
    expect((await stored('108'))?.id).toBe(id);
  });

  it('M10: a base of 39 characters is cut to make room for the number: 37 with -2 … -9, 36 with -10', async () => {
    const base = `${'a'.repeat(30)}bcdefghij`;
    await taken([base, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${'a'.repeat(30)}bcdefgh-${n}`)]);
    await system((tx) => admit(tx, '109', base));
    expect((await stored('109'))?.nickname).toBe(`${'a'.repeat(30)}bcdefg-10`);
  });

  it('P24, M10: an admission forgets the transaction’s remembered reads of a numbered nickname it may take (base-7)', async () => {
    await taken(nicknameCandidates('zoe', 6));
    const key: RoutingKey = {
      platform: 'slack',
      workspace: { platform: 'slack', externalId: 'T-acme' },
      channelId: acme.channelId,
      thread: acme.threadId,
      senderId: 'U-acme',
      mentioned: ['zoe-7'],
    };
    await system(async (tx) => {
      const named = async () =>
        (await tx.routingReads.membersOfTeam('slack', 'T-acme', { nicknames: ['ZOE-7'] })).map(
          (m) => m.nickname,
        );
      const reached = async () => (await tx.routingReads.read(key)).members.map((m) => m.nickname);
      expect(await named()).toEqual([]);
      expect(await reached()).toEqual([]);
      await admit(tx, '110', 'zoe');
      expect(await named()).toEqual(['zoe-7']);
      expect(await reached()).toEqual(['zoe-7']);
    });
  });

  it('P24, T3: several people admitted in one transaction (a batch of first messages) are one statement: one record each, clashing nicknames made unique in order', async () => {
    messages = [];
    const members = await system(async (tx) => {
      // Started, as a routing transaction is by its claim: admissions are owed, not sent.
      await tx.members.list(acme.workspaceId);
      await admit(tx, '201', 'sam');
      await admit(tx, '202', 'sam');
      await admit(tx, '203', 'robin');
      await admit(tx, '202', 'sam');
      return tx.members.list(acme.workspaceId);
    });
    const runs = messages.join('\n').match(new RegExp(`EXECUTE ${ADMIT_MEMBERS.name}\\(`, 'g'));
    expect(runs).toHaveLength(1);
    const nicknameOf = (account: string) =>
      members.filter((m) => m.discordUserId === account).map((m) => m.nickname);
    expect(nicknameOf('201')).toEqual(['sam']);
    expect(nicknameOf('202')).toEqual(['sam-2']);
    expect(nicknameOf('203')).toEqual(['robin']);
    // Admitted after the first call went out: a call of its own.
    messages = [];
    await system(async (tx) => {
      await tx.members.list(acme.workspaceId);
      await admit(tx, '204', 'sam');
      await tx.members.list(acme.workspaceId);
      await admit(tx, '205', 'sam');
    });
    // One person alone: the plain statement of one.
    expect(messages.join('\n').match(new RegExp(`EXECUTE ${ADMIT_MEMBER.name}\\(`, 'g'))).toHaveLength(2);
    expect((await stored('204'))?.nickname).toBe('sam-3');
    expect((await stored('205'))?.nickname).toBe('sam-4');
  });

  it('the same person admitted again (their record already there): nothing changes', async () => {
    await system((tx) => admit(tx, '103', 'lee'));
    await system((tx) => admit(tx, '103', 'lee-2'));
    expect((await stored('103'))?.nickname).toBe('lee');
  });

  it('P24: an admitted Discord person’s record enters three indexes: the key (id, workspace_id), the nickname, the account', async () => {
    const indexes = await system((tx) =>
      tx.query<{ name: string; predicate: string | null; key: string }>(
        `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate,
                pg_get_indexdef(i.indexrelid) AS key
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'members'::regclass`,
      ),
    );
    // A partial index holds the row only when its predicate names the column the row fills.
    const entered = indexes.filter((i) => i.predicate === null || i.predicate.includes('discord_user_id'));
    expect(entered.map((i) => i.name).sort()).toEqual([
      'pk_members',
      'uq_members_discord_user',
      'uq_members_nickname',
    ]);
    expect(indexes.find((i) => i.name === 'pk_members')?.key).toMatch(/\(id, workspace_id\)/);
  });

  it('an account already linked to another member fails the transaction, saying so', async () => {
    await expect(
      system((tx) => admit(tx, '104', 'zed').then(() => tx.members.list(acme.workspaceId))),
    ).resolves.toBeDefined();
    await expect(
      system(async (tx) => {
        await tx.members.admitOwed(
          acme.workspaceId,
          {
            id: admittedMemberId(acme.workspaceId, 'discord', 'other'),
            role: 'member',
            slackUserId: null,
            discordUserId: '104',
            accessVia: 'discord:role:1',
            accessViaName: null,
          },
          { base: 'zed-2', account: 'discord-104' },
        );
        await tx.members.list(acme.workspaceId);
      }),
    ).rejects.toThrow('This Discord user is already linked to another member of the workspace.');
  });

  if (kind === 'postgres')
    it('two first messages of one person at once: one record, both transactions commit', async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let firstSent = () => {};
      const sent = new Promise<void>((resolve) => {
        firstSent = resolve;
      });
      const first = system(async (tx) => {
        await admit(tx, '105', 'kim');
        await tx.members.list(acme.workspaceId);
        firstSent();
        await held;
      });
      await sent;
      // The second waits on the first's uncommitted row, then finds it made.
      const second = system(async (tx) => {
        await admit(tx, '105', 'kim-other');
        return tx.members.findByPlatformUser(acme.workspaceId, 'discord', '105');
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await first;
      expect((await second)?.nickname).toBe('kim');
      const all = await system((tx) => tx.members.list(acme.workspaceId));
      expect(all.filter((m) => m.discordUserId === '105')).toHaveLength(1);
    });
});
