import { admittedMemberId } from '../../../src/core/members/admitted-member';
import { ADMIT_MEMBER, ADMIT_MEMBERS } from '../../../src/storage/store/repositories/member-repository';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * P24, M10, T3: an admitted person's member record, made by `summon_admit_member` with the
 * transaction's next message: the first free nickname offered, one made of the id when all
 * are taken, one record for two first messages at once.
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
  const admit = (tx: SqlStoreTx, discordUserId: string, nicknames: string[]) =>
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
      nicknames,
    );
  const stored = (discordUserId: string) =>
    system((tx) => tx.members.findByPlatformUser(acme.workspaceId, 'discord', discordUserId));

  it('M10: the first offered nickname no member has, case ignored; with all taken, one made of the id', async () => {
    await system(async (tx) => {
      await admit(tx, '101', ['ACME-dana', 'dana-2', 'dana-3']);
      // Read in the same transaction: the owed call went first, and routing's remembered reads forgot.
      const member = await tx.members.findByPlatformUser(acme.workspaceId, 'discord', '101');
      expect(member).toMatchObject({ nickname: 'dana-2', role: 'member', accessVia: 'discord:role:1' });
    });
    await system((tx) => admit(tx, '102', ['acme-dana', 'Dana-2']));
    const id = admittedMemberId(acme.workspaceId, 'discord', '102');
    expect((await stored('102'))?.nickname).toBe(`m-${id.replaceAll('-', '')}`);
    expect((await stored('102'))?.id).toBe(id);
  });

  it('P24, T3: several people admitted in one transaction (a batch of first messages) are one statement: one record each, clashing nicknames made unique in order', async () => {
    messages = [];
    const members = await system(async (tx) => {
      // Started, as a routing transaction is by its claim: admissions are owed, not sent.
      await tx.members.list(acme.workspaceId);
      await admit(tx, '201', ['sam', 'sam-2', 'sam-3']);
      await admit(tx, '202', ['Sam', 'sam-2', 'sam-3']);
      await admit(tx, '203', ['robin', 'robin-2']);
      await admit(tx, '202', ['sam', 'sam-2', 'sam-3']);
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
      await admit(tx, '204', ['sam', 'sam-2', 'sam-3', 'sam-4']);
      await tx.members.list(acme.workspaceId);
      await admit(tx, '205', ['sam', 'sam-2', 'sam-3', 'sam-4']);
    });
    // One person alone: the plain statement of one.
    expect(messages.join('\n').match(new RegExp(`EXECUTE ${ADMIT_MEMBER.name}\\(`, 'g'))).toHaveLength(2);
    expect((await stored('204'))?.nickname).toBe('sam-3');
    expect((await stored('205'))?.nickname).toBe('sam-4');
  });

  it('the same person admitted again (their record already there): nothing changes', async () => {
    await system((tx) => admit(tx, '103', ['lee']));
    await system((tx) => admit(tx, '103', ['lee-2']));
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
      system((tx) => admit(tx, '104', ['zed']).then(() => tx.members.list(acme.workspaceId))),
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
          ['zed-2'],
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
        await admit(tx, '105', ['kim']);
        await tx.members.list(acme.workspaceId);
        firstSent();
        await held;
      });
      await sent;
      // The second waits on the first's uncommitted row, then finds it made.
      const second = system(async (tx) => {
        await admit(tx, '105', ['kim-other']);
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
