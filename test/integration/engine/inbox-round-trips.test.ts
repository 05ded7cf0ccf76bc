import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { SlackInboxDecoder, slackInboxEntry } from '../../../src/bots/slack/inbound/slack-inbox';
import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import { TurnEngine } from '../../../src/core/engine/turn-engine';
import type { AccessGroup } from '../../../src/core/model/members/access-group';
import type { ChatPlatform } from '../../../src/core/ports/chat-platform';
import { silentLogger } from '../../../src/core/ports/logger';
import type { HeldGroups, PlatformGroups } from '../../../src/core/ports/platform-groups';
import { InMemoryPairRateLimiter } from '../../../src/core/wake/in-memory-pair-rate-limiter';
import { ADMIT_MEMBERS } from '../../../src/storage/store/repositories/member-repository';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { ScriptedRunner } from '../../support/scripted-runner';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from '../storage/workspace-fixture';

const BOT = 'U-bot';
const CHANNEL = 'C0ACME1';

/** P24: the Slack team's people, as the front end's user-group cache has them: everyone is in. */
class EveryoneInTheTeam implements PlatformGroups {
  async heldGroups(_team: string, userId: string, listed: readonly AccessGroup[]): Promise<HeldGroups> {
    return {
      held: listed.filter((group) => group.kind === 'everyone'),
      // Two people share a name: their nicknames must still differ (M10).
      displayName: userId === 'U0NEW0' || userId === 'U0NEW1' ? 'Pat' : `person ${userId}`,
      names: new Map(),
    };
  }
}

/** Slack as routing sees it: nothing is posted for an accepted message. */
const slack: ChatPlatform = {
  platform: 'slack',
  groups: new EveryoneInTheTeam(),
  post: async () => 'posted',
  update: async () => {},
  startThread: async () => ({ thread: 'slack:C0ACME1:1.1', messageRef: '1.1' }),
  tellPrivately: async () => {},
};

/**
 * T3, T4 (issue 34): an inbox row costs the routing as few messages as its meaning allows. The
 * Slack decoder's lookups (mentioned people, the channel's binding), the event's record (P6)
 * and routing's reads (P8, M1–M12) depend only on the stored event, so they go as one message:
 * a row alone is its claim, that message, and the COMMIT with its writes; a burst of one
 * channel claimed as one run asks every row's reads and records in that one message too.
 */
describe.each(DATABASE_KINDS)('the routing of inbox rows, by the messages it sends, on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let engine: TurnEngine;
  let messages: string[] = [];
  let sequence = 0;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    await db.database.store.transaction((tx) => tx.channelBindings.bind(acme.spaceId, 'slack', CHANNEL));
    dataDir = await makeTempDir();
    recordMessages(db.database.dataSource, (query) => void messages.push(readable(query)));
  });
  afterAll(async () => {
    await dataDir.remove();
    await db.dispose();
  });
  beforeEach(() => {
    // Not started: rows are routed (the inbox is used) and their runs enqueued, never run.
    engine = new TurnEngine({
      store: db.database.store,
      platforms: new Map([['slack', slack]]),
      queue: createJobQueue<RunJob>({ name: `inbox-trips-${kind}`, retry: { attempts: 1, backoffMs: 10 } }),
      runners: () => new ScriptedRunner({}),
      rateLimiter: new InMemoryPairRateLimiter(),
      directory: new FileWorkspaceDirectory(dataDir.path),
      clock: { now: () => new Date() },
      logger: silentLogger,
      relayName: null,
      timings: DEFAULT_TIMINGS,
    });
  });
  afterEach(() => engine.close());

  /** A person's top-level mention of the agent in the bound channel: a thread of its own. */
  const mention = (user = 'U-acme') => {
    sequence += 1;
    const ts = `1800000000.${String(sequence).padStart(6, '0')}`;
    const entry = slackInboxEntry(
      {
        type: 'app_mention',
        channel: CHANNEL,
        user,
        text: `<@${BOT}> @acme_alice ping ${sequence}`,
        ts,
      },
      'T-acme',
      new Date(),
    );
    if (entry === null) throw new Error('not a person’s message');
    return entry;
  };

  /** Stores the rows, then routes them (the decoder is given last: one lane claims them all). */
  const route = async (count: number, user?: (i: number) => string) => {
    for (let i = 0; i < count; i += 1) await db.database.store.addToInbox(mention(user?.(i)));
    // A row is due from its `available_at` (the server's microseconds); the claim asks with a
    // millisecond clock: a row stored in the same millisecond would wait for the next look.
    await new Promise((resolve) => setTimeout(resolve, 5));
    messages = [];
    engine.routeInboxWith('slack', new SlackInboxDecoder({ botUserId: BOT, logger: silentLogger }));
    await engine.inboxSettled();
    const routed = [...messages];
    const outcomes = await db.database.store.transaction((tx) =>
      tx.query<{ outcome: string }>(
        "SELECT outcome FROM inbound_inbox WHERE outcome IS NOT NULL AND outcome <> 'pending' ORDER BY seq DESC LIMIT $1",
        [count],
      ),
    );
    return { routed, outcomes: outcomes.map((row) => row.outcome) };
  };

  it('T3, T4: one row is three messages: its claim, its lookups with the event’s record and routing’s reads, its writes with the COMMIT', async () => {
    const { routed, outcomes } = await route(1);
    expect(outcomes).toEqual(['accepted']);
    expect(routed).toHaveLength(3);
    expect(routed[0]).toMatch(/^START TRANSACTION;\n.*WITH/s);
    const reads = routed[1] ?? '';
    expect(reads).toMatch(/slack_user_id = ANY/);
    expect(reads).toMatch(/INSERT INTO processed_inbound_events/);
    expect(reads).toMatch(/SELECT \* FROM conversations/);
    expect(routed[2]).toMatch(/INSERT INTO "?messages"?.*COMMIT$/s);
  });

  it('T3, T4: a burst of sixteen rows of one channel, claimed as one run, is three messages: every row’s lookups, records and reads go together', async () => {
    // T7: the process's cache holds the channel's directory (whatever ran before this test).
    await route(1);
    const { routed, outcomes } = await route(16);
    expect(outcomes).toEqual(Array.from({ length: 16 }, () => 'accepted'));
    const [claim, reads, writes, ...after] = routed;
    expect(claim).toMatch(/^START TRANSACTION;\n.*WITH w/s);
    expect(reads?.match(/INSERT INTO processed_inbound_events/g)).toHaveLength(16);
    expect(reads?.match(/SELECT \* FROM conversations/g)).toHaveLength(16);
    // The directory's version is read once for the run (remembered for the transaction); its
    // agents come from the process's cache, which the row before filled (T7).
    expect(reads?.match(/FROM directory_versions/g)).toHaveLength(1);
    expect(reads).not.toMatch(/SELECT \* FROM agents/);
    expect(writes?.match(/INSERT INTO "runs"/g)).toHaveLength(16);
    expect(writes).toMatch(/COMMIT$/);
    // The run took all it asked for: the lane looks once more, and finds nothing.
    expect(
      after.every((message) => message === 'COMMIT' || /^START TRANSACTION;\n.*WITH w/s.test(message)),
    ).toBe(true);
  });

  it('P24, T3: a batch of first messages from people no member row names admits them all in one statement, one record each, nicknames unique', async () => {
    // T7: the process's cache holds the channel's directory (whatever ran before this test).
    await route(1);
    await db.database.store.transaction((tx) =>
      tx.accessGroups.replace(acme.workspaceId, [
        { group: { platform: 'slack', kind: 'everyone' }, role: 'member' },
      ]),
    );
    const people = Array.from({ length: 8 }, (_, i) => `U0NEW${i}`);
    const { routed, outcomes } = await route(8, (i) => people[i] ?? '');
    expect(outcomes).toEqual(Array.from({ length: 8 }, () => 'accepted'));
    // Messages are shown as their statements mean them: each run of `ADMIT_MEMBERS` as its text.
    const admissions = routed.filter((message) => message.includes(ADMIT_MEMBERS.text));
    expect(admissions).toHaveLength(1);
    expect(admissions[0]?.split(ADMIT_MEMBERS.text)).toHaveLength(2);
    // An admission forgets only the reads naming the person: the others asked ahead stand, and
    // the batch is still its claim, one message of reads, and the writes with the COMMIT; with,
    // once, the directory read again (T7: the access groups just replaced moved its version on).
    expect(routed).toHaveLength(4);
    expect(routed[2]).toMatch(/FROM directory_versions.*FROM access_groups/s);
    expect(routed[2]).not.toMatch(/FROM conversations/);
    const members = await db.database.store.transaction((tx) => tx.members.list(acme.workspaceId));
    const admitted = members.filter((m) => people.includes(m.slackUserId ?? ''));
    expect(admitted.map((m) => m.slackUserId).sort()).toEqual([...people].sort());
    expect(new Set(admitted.map((m) => m.nickname.toLowerCase())).size).toBe(8);
  });

  it('T4: a row its decoder cannot read is still counted as a failed routing (nothing is asked ahead for it)', async () => {
    await db.database.store.addToInbox({ ...mention(), payload: { teamId: 'T-acme' } });
    await route(0);
    const [row] = await db.database.store.transaction((tx) =>
      tx.query<{ attempts: number; last_error: string | null }>(
        'SELECT attempts, last_error FROM inbound_inbox WHERE routed_at IS NULL ORDER BY seq LIMIT 1',
      ),
    );
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(/holds no Slack message event/);
  });
});
