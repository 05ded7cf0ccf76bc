import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import type { Logger } from '../../../../src/core/ports/logger';
import type { RunnerRequest } from '../../../../src/core/ports/runner';
import { ensureWorkspace } from '../../../../src/core/workspace/seed-workspace';
import { COMMIT_COMMAND, COMMITS_ASK_FIRST } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import {
  openSlackHarness,
  PEOPLE,
  type SlackHarness,
  type SlackHarnessOptions,
} from '../../../support/slack-harness';
import type { StoredSlackMessage } from '../../../support/stand-ins/slack-web-api-stand-in';

/** The second team of an org-wide install: its own workspace, channel and person (an owner there). */
const BETA = { team: 'T0BETA0001', channel: 'C0BETA0001', person: 'U0BEA00001' } as const;

const untilAborted = (request: RunnerRequest) =>
  new Promise<void>((resolve) => {
    if (request.signal.aborted) resolve();
    request.signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** Works until aborted (Stop on its card). */
const untilStopped: Script = async function* (request) {
  yield { type: 'text', delta: 'Looking.' };
  yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
  await untilAborted(request);
};

/** A commit that waits on a person's approval (G4). */
const committing: Script = async function* (request) {
  yield { type: 'tool_start', callId: 'c1', tool: 'Bash', summary: 'git commit' };
  const decision = await request.tools.authorize(
    { callId: 'c1', name: 'Bash', input: { command: COMMIT_COMMAND } },
    request.signal,
  );
  yield { type: 'tool_end', callId: 'c1', ok: decision.allowed };
  if (request.signal.aborted) return;
  yield { type: 'final', text: decision.allowed ? 'Committed.' : 'Not committed.' };
};

/** N1: engineer hands work to architect (not in the space: a note in a new thread). */
const handsToArchitect: Script = async function* (request) {
  yield { type: 'tool_start', callId: 'send-1', tool: 'send_to_agent', summary: 'architect' };
  const outcome = await request.tools.call(
    { callId: 'send-1', name: 'send_to_agent', input: { agent: 'architect', text: 'Draft a note.' } },
    request.signal,
  );
  yield { type: 'tool_end', callId: 'send-1', ok: outcome.ok };
  yield { type: 'final', text: 'Handed to architect.' };
};

/**
 * A2, P8: one token serving two Slack teams bound to two workspaces (an org-wide install). A
 * click, a `/summon` or a session Stop of one team naming a channel the other team's workspace
 * owns acts on nothing and writes nothing into that channel; one warn line says which.
 */
describe('A2, P8: a Slack team’s interactions never act in another team’s workspace', () => {
  let h: SlackHarness;
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => warnings.push({ fields: fields as Record<string, unknown>, message }),
    error: () => {},
    child: () => logger,
  };
  let events = 0;
  afterEach(() => h?.close());

  const open = async (engineer: Script, options: Partial<SlackHarnessOptions> = {}) => {
    warnings.length = 0;
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer, architect: () => [{ type: 'final', text: 'Noted.' }] }),
      tools: createToolKit([], {}),
      logger,
      ...options,
      standIn: { channelTeams: { [BETA.channel]: BETA.team }, ...options.standIn },
    });
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST));
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
      await tx.channelBindings.bind(space.id, 'slack', BETA.channel);
      await tx.members.insert(workspace.id, {
        nickname: 'bea',
        role: 'owner',
        slackUserId: BETA.person,
        discordUserId: null,
      });
    });
  };

  /** mia asks engineer in a new thread of alpha's channel; resolves with its ts. */
  const ask = async (text: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    await h.deliver(
      eventFrom('message-channel', { ts, user: PEOPLE.mia.userId, text }, `Ev0TENCLK${events}`),
    );
    return ts;
  };
  const cardWith = (ts: string, marker: string) =>
    h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(marker));
  /** A click of beta's owner on a card in alpha's channel, as Slack sends it (beta's team). */
  const betaClick = (message: StoredSlackMessage, actionId: string) => {
    const payload = clickPayload(message, BETA.person, actionId);
    return h.deliver({
      ...payload,
      team: { id: BETA.team, domain: 'beta' },
      user: { ...(payload.user as object), team_id: BETA.team },
    });
  };
  /** Calls after `from` that wrote into alpha's channel, or edited `ts` there. */
  const writesSince = (from: number, ts: string) =>
    h.standIn.calls
      .slice(from)
      .filter(
        (c) =>
          (['chat.postMessage', 'chat.postEphemeral', 'chat.startStream'].includes(c.method) &&
            c.params.channel === CHANNEL) ||
          (c.method === 'chat.update' && c.params.ts === ts) ||
          (c.method === 'agents.sessions.setStatus' && c.params.channel_id === CHANNEL),
      );
  /** The one warn line naming beta's team and alpha's channel (never the token). */
  const refusedOnce = async () => {
    const refused = () => warnings.filter((w) => w.fields.team === BETA.team && w.fields.channel === CHANNEL);
    await waitFor(async () => refused().length > 0, 10_000);
    await h.front.deliverer.drain();
    expect(refused().length).toBe(1);
    expect(JSON.stringify(warnings)).not.toContain(h.standIn.token);
  };

  it('a click of another team on an approval card leaves the approval pending', async () => {
    await open(committing);
    const ts = await ask('@engineer commit the fix');
    await waitFor(async () => buttonValue(cardWith(ts, ':lock:'), ACTIONS.approve) !== null);
    const card = cardWith(ts, ':lock:') as StoredSlackMessage;
    await h.front.deliverer.drain();
    const from = h.standIn.calls.length;
    expect((await betaClick(card, ACTIONS.approve)).status).toBe(200);
    await refusedOnce();
    expect(writesSince(from, card.ts)).toEqual([]);
    const approvalId = buttonValue(card, ACTIONS.approve) as string;
    expect((await h.read((tx) => tx.approvals.findById(approvalId)))?.status).toBe('pending');
    expect((await h.runs()).map((r) => r.status)).toEqual(['running']);
    // The channel's own team still decides it, as before.
    expect((await h.deliver(clickPayload(card, PEOPLE.dana.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'));
  });

  it('a click of another team on Stop leaves the run running', async () => {
    await open(untilStopped);
    const ts = await ask('@engineer run the tests');
    await waitFor(async () => JSON.stringify(cardWith(ts, ACTIONS.stop)?.blocks ?? []).includes('npm test'));
    const card = cardWith(ts, ACTIONS.stop) as StoredSlackMessage;
    await h.front.deliverer.drain();
    const from = h.standIn.calls.length;
    expect((await betaClick(card, ACTIONS.stop)).status).toBe(200);
    await refusedOnce();
    expect(writesSince(from, card.ts)).toEqual([]);
    expect((await h.runs()).map((r) => r.status)).toEqual(['running']);
  });

  it('a click of another team on a note leaves it folded', async () => {
    await open(handsToArchitect);
    await h.read(async (tx) => {
      const architect = (await tx.agents.list(h.local.workspace.id)).find((a) => a.name === 'architect');
      const participants = await tx.spaces.listParticipants(h.local.space.id);
      await tx.spaces.setParticipants(
        h.local.space.id,
        participants.filter((p) => !(p.kind === 'agent' && p.agentId === architect?.id)),
      );
    });
    await ask('@engineer get a design note');
    const note = await waitFor(async () => {
      const found = h.standIn.messages.find((m) => JSON.stringify(m.blocks ?? []).includes(ACTIONS.noteOpen));
      return found ?? null;
    });
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'));
    await h.front.deliverer.drain();
    const from = h.standIn.calls.length;
    expect((await betaClick(note, ACTIONS.noteOpen)).status).toBe(200);
    await refusedOnce();
    expect(writesSince(from, note.ts)).toEqual([]);
  });

  it('a /summon of another team in a channel of the other workspace does nothing and says why', async () => {
    await open(untilStopped);
    const response = await h.deliver({
      ...fixture('slash-command'),
      team_id: BETA.team,
      team_domain: 'beta',
      channel_id: CHANNEL,
      user_id: BETA.person,
      text: 'dedicated off',
    });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as { response_type: string; text: string };
    expect(body).toEqual({ response_type: 'ephemeral', text: expect.stringMatching(/another workspace/) });
    await refusedOnce();
    expect(writesSince(0, '')).toEqual([]);
    const space = await h.read((tx) => tx.spaces.findByName(h.local.workspace.id, h.local.space.name));
    expect(space?.dedicated).toBe(h.local.space.dedicated);
  });

  it('a session Stop of another team on a thread of the other workspace stops nothing', async () => {
    await open(untilStopped, { standIn: { agentSessions: { enabled: true } } });
    const ts = await ask('@engineer run the tests');
    await waitFor(async () => JSON.stringify(cardWith(ts, ACTIONS.stop)?.blocks ?? []).includes('npm test'));
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, ts)?.status === 'processing');
    const card = cardWith(ts, ACTIONS.stop) as StoredSlackMessage;
    await h.front.deliverer.drain();
    const from = h.standIn.calls.length;
    events += 1;
    const stopped = h.standIn.agentSessions.pressStop(CHANNEL, ts, BETA.person);
    const envelope = eventFrom('agent-session-stopped', stopped, `Ev0TENSTOP${events}`);
    const response = await h.deliver({ ...envelope, team_id: BETA.team, context_team_id: BETA.team });
    expect(response.status).toBe(200);
    await refusedOnce();
    expect(writesSince(from, card.ts)).toEqual([]);
    expect((await h.runs()).map((r) => r.status)).toEqual(['running']);
  });
});
