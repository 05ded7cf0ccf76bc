import { discordDirectory } from '../../../src/bots/discord/discord-directory';
import { SlackInboxDecoder } from '../../../src/bots/slack/inbound/slack-inbox';
import { StoreChatDirectory } from '../../../src/core/directory/store-chat-directory';
import { transactionStore } from '../../../src/core/ingest/transaction-store';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

const PEOPLE = 2000;
const CHANNEL = 'C0ACME1';

/**
 * P8, M10, M11, P24: with a community of thousands, one message costs what it names, not what
 * the community is. PostgreSQL counts the `members` rows each transaction fetched
 * (`pg_stat_xact_user_tables`: by sequential scans and through indexes): a Slack inbox row
 * decoded (its `<@U…>` mentions as nicknames), a Discord message's mentions, and a turn's reads,
 * among 2,000 members, each fetch a handful of rows.
 */
describe('P8: the message path reads the members a message names, not the whole team', () => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    acme = await seedWorkspace(db.database.store, 'acme');
    await db.database.store.transaction(async (tx) => {
      await tx.platformBindings.bind(acme.workspaceId, 'discord', '900000000000000001');
      await tx.channelBindings.bind(acme.spaceId, 'slack', CHANNEL);
      await tx.query(
        `INSERT INTO members (workspace_id, nickname, role, slack_user_id, discord_user_id)
         SELECT $1, 'person-' || g, 'member', 'U' || g, (910000000000000000 + g)::text
         FROM generate_series(1, $2::int) g`,
        [acme.workspaceId, PEOPLE],
      );
      await tx.query(
        `UPDATE members SET github_login = 'person-' || substr(slack_user_id, 2) || '-gh' WHERE workspace_id = $1 AND slack_user_id LIKE 'U%'`,
        [acme.workspaceId],
      );
      await tx.channelBindings.bind(acme.spaceId, 'github', 'acme/api');
      await tx.query('ANALYZE members');
    });
  });
  afterAll(() => db.dispose());

  /**
   * `work`'s answer, and the `members` rows it fetched: the backend's counts before and after,
   * in one transaction (they are flushed only between transactions, so nothing else is counted).
   */
  const counted = <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.transaction(async (tx) => {
      const fetched = async () => {
        const [row] = await tx.query<{ fetched: string }>(
          `SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS fetched
           FROM pg_stat_xact_user_tables WHERE relname = 'members'`,
        );
        return Number(row?.fetched ?? 0);
      };
      const before = await fetched();
      const answer = await work(tx);
      return { answer, fetched: (await fetched()) - before };
    });

  it('P8, M11: a Slack message mentioning two people, decoded in its routing transaction', async () => {
    const decoder = new SlackInboxDecoder({ botUserId: 'U-bot', logger: silentLogger });
    const { answer, fetched } = await counted((tx) =>
      decoder.decode(
        {
          id: '1',
          attempts: 0,
          platform: 'slack',
          eventId: `${CHANNEL}:1700000001.000100`,
          threadKey: 'k',
          channelKey: CHANNEL,
          receivedAt: new Date(),
          payload: {
            teamId: 'T-acme',
            event: {
              type: 'message',
              channel: CHANNEL,
              user: 'U7',
              text: '<@U-bot> ask <@U12> and <@U1999|someone> about it',
              ts: '1700000001.000100',
            },
          },
        },
        new StoreChatDirectory(transactionStore(tx)),
      ),
    );
    expect(answer).toMatchObject({
      kind: 'route',
      message: { text: 'ask @person-12 and @person-1999 about it' },
    });
    expect(fetched).toBeLessThan(10);
  });

  it('P8, M11: a Discord message’s mentions, read by account', async () => {
    const { answer, fetched } = await counted((tx) =>
      discordDirectory(new StoreChatDirectory(transactionStore(tx))).members('900000000000000001', {
        accounts: ['910000000000000005'],
      }),
    );
    expect(answer).toEqual([{ nickname: 'person-5', discordUserId: '910000000000000005' }]);
    expect(fetched).toBeLessThan(10);
  });

  it('M11: an outgoing Slack call reads the channel’s owner and the members its text names, by nickname', async () => {
    const directory = (tx: SqlStoreTx) => new StoreChatDirectory(transactionStore(tx));
    const named = await counted((tx) => directory(tx).channelOwner('slack', CHANNEL, 'T-acme', ['Person-7']));
    expect(named.answer).toEqual({
      workspaceId: acme.workspaceId,
      members: [{ nickname: 'person-7', userId: 'U7' }],
    });
    expect(named.fetched).toBeLessThan(10);
    const card = await counted((tx) => directory(tx).channelOwner('slack', CHANNEL, 'T-acme'));
    expect(card.answer).toEqual({ workspaceId: acme.workspaceId, members: [] });
    expect(card.fetched).toBe(0);
  });

  it('P8, M10, G4: a turn reads its own people (its starter, authors and roster), not the workspace', async () => {
    const run = await db.database.store.inWorkspace(acme.workspaceId, (tx) => tx.runs.findById(acme.runId));
    if (run === null) throw new Error('no run');
    const { answer, fetched } = await counted((tx) => tx.turnReads.read(run, 50));
    expect(answer.members.map((m) => m.id)).toContain(acme.memberId);
    expect(answer.members.length).toBeLessThan(10);
    expect(fetched).toBeLessThan(20);
  });

  it('P8, P20: a GitHub comment reads the member its login belongs to, not the repository’s workspace', async () => {
    const { answer, fetched } = await counted((tx) =>
      new StoreChatDirectory(transactionStore(tx)).repoWorkspace('acme/api', 'Person-42-GH'),
    );
    expect(answer).toMatchObject({
      workspaceId: acme.workspaceId,
      members: [{ nickname: 'person-42', userId: 'person-42-gh' }],
    });
    expect(fetched).toBeLessThan(10);
  });
});
