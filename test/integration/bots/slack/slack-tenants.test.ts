import type { Logger } from '../../../../src/core/ports/logger';
import { ensureWorkspace } from '../../../../src/core/workspace/seed-workspace';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, TEAM } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

/** The second team of an org-wide install: its own workspace, channel and person. */
const BETA = { team: 'T0BETA0001', channel: 'C0BETA0001', person: 'U0BEA00001' } as const;

/**
 * A2, P8: one token serving two Slack teams bound to two workspaces (an org-wide install). An
 * event of one team naming a channel the other team's workspace owns runs nothing and posts
 * nothing there; every call for a workspace names that workspace's own team.
 */
describe('A2, P8: two Slack teams in one process never write into each other', () => {
  let h: SlackHarness;
  let runner: ScriptedRunner;
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => warnings.push({ fields: fields as Record<string, unknown>, message }),
    error: () => {},
    child: () => logger,
  };
  let events = 0;

  beforeEach(async () => {
    warnings.length = 0;
    // A reply that streams (text as it comes, then the whole).
    runner = new ScriptedRunner({}, () => [
      { type: 'text', delta: 'on it' },
      { type: 'final', text: 'on it' },
    ]);
    h = await openSlackHarness({
      runner,
      logger,
      standIn: {
        streaming: { enabled: true, maxAgeMs: 60_000 },
        channelTeams: { [BETA.channel]: BETA.team },
      },
      stream: { rolloverAfterMs: 60_000 },
    });
    await h.store.transaction(async (tx) => {
      const { workspace } = await ensureWorkspace(tx, 'beta', 'Beta');
      await tx.platformBindings.bind(workspace.id, 'slack', BETA.team);
      const space = await tx.spaces.insert(workspace.id, {
        name: 'beta-general',
        context: 'The beta team’s channel.',
        mode: 'chat',
        autonomy: 'actWithApproval',
        dedicated: true,
        whileRunning: 'steer',
        repos: [],
      });
      for (const agent of await tx.agents.list(workspace.id))
        await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: agent.id });
      await tx.channelBindings.bind(space.id, 'slack', BETA.channel);
      await tx.members.insert(workspace.id, {
        nickname: 'bea',
        role: 'member',
        slackUserId: BETA.person,
        discordUserId: null,
      });
    });
  });
  afterEach(() => h.close());

  /** A signed message event of `team`, by `user`, in `channel` (a new thread, or `threadTs`'s). */
  const say = async (team: string, channel: string, user: string, threadTs: string | null = null) => {
    const ts = h.standIn.addPersonMessage(channel, threadTs);
    events += 1;
    const envelope = eventFrom(
      'message-channel',
      {
        ts,
        channel,
        user,
        team,
        text: '@engineer explain',
        ...(threadTs === null ? {} : { thread_ts: threadTs }),
      },
      `Ev0TENANT${events}`,
    );
    const response = await h.deliver({ ...envelope, team_id: team, context_team_id: team });
    expect(response.status).toBe(200);
    return ts;
  };
  const settled = async () => {
    await waitFor(async () => (await h.store.transaction((tx) => tx.inbox.countPending())) === 0, 15_000);
    await h.engine?.inboxSettled();
    await waitFor(
      async () => (await h.runs()).every((r) => r.status === 'succeeded' || r.status === 'failed'),
      15_000,
    );
    await h.front.deliverer.drain();
  };
  /** What the bot wrote into `channel` (posts, ephemerals, streams). */
  const writesInto = (channel: string) => [
    ...h.standIn.calls.filter(
      (c) =>
        ['chat.postMessage', 'chat.postEphemeral', 'chat.startStream'].includes(c.method) &&
        c.params.channel === channel,
    ),
  ];

  it('an event of one team naming a channel of the other team’s workspace runs nothing and posts nothing', async () => {
    // A thread where alpha's agent already answered.
    const thread = await say(TEAM, CHANNEL, PEOPLE.mia.userId);
    await settled();
    const before = writesInto(CHANNEL).length;
    const runsBefore = (await h.runs()).length;
    await say(BETA.team, CHANNEL, BETA.person);
    await say(BETA.team, CHANNEL, BETA.person, thread);
    await say(BETA.team, CHANNEL, PEOPLE.mia.userId, thread);
    await settled();
    expect(writesInto(CHANNEL).length).toBe(before);
    expect(h.standIn.ephemerals.filter((e) => e.channel === CHANNEL)).toEqual([]);
    expect((await h.runs()).length).toBe(runsBefore);
    expect(
      h.standIn.inThread(CHANNEL, thread).filter((m) => m.text.includes('not linked to a space')),
    ).toEqual([]);
    // One line for each refused event, naming the team and the channel.
    const refused = warnings.filter((w) => w.fields.team === BETA.team && w.fields.channel === CHANNEL);
    expect(refused.length).toBe(3);
    expect(JSON.stringify(refused)).not.toContain(h.standIn.token);
  });

  it('P6: an event the decoder drops after its preview was recorded ahead is not recorded as processed', async () => {
    const routed = await say(TEAM, CHANNEL, PEOPLE.mia.userId);
    await settled();
    // Dropped by the decoder (the channel is the other team's), after the router previewed it
    // and recorded its event ahead with its batch's reads.
    const dropped = [await say(BETA.team, CHANNEL, BETA.person), await say(BETA.team, CHANNEL, BETA.person)];
    await settled();
    const firstTime = (ts: string) =>
      h.store.transaction((tx) => tx.processedEvents.record('slack', `${CHANNEL}:${ts}`));
    expect(await firstTime(routed)).toBe(false);
    for (const ts of dropped) expect(await firstTime(ts)).toBe(true);
  });

  it('each team’s replies stream with its own recipient_team_id', async () => {
    await say(TEAM, CHANNEL, PEOPLE.mia.userId);
    await say(BETA.team, BETA.channel, BETA.person);
    await settled();
    const streams = h.standIn.calls.filter((c) => c.method === 'chat.startStream');
    const teamOf = (channel: string) =>
      streams.filter((c) => c.params.channel === channel).map((c) => c.params.recipient_team_id);
    expect(teamOf(CHANNEL)).toEqual([TEAM]);
    expect(teamOf(BETA.channel)).toEqual([BETA.team]);
    expect(streams.every((c) => c.ok)).toBe(true);
  });
});
