import { newKeyPair, signedHeaders } from '../../../src/adapters/relay-http/relay-signature';
import { waitFor } from '../../support/engine-harness';
import { DANA, openRelaySide, type RelaySide } from '../../support/relay-pair';
import {
  firstText,
  mentionOn,
  messagesOf,
  pairSides,
  replyIn,
  say,
  task,
  toolResult,
  use,
} from '../../support/relay-script';
import { CHANNEL, deliver, eventFrom } from '../../support/slack-delivery';
import type { StandInReply } from '../../support/stand-ins/anthropic-stand-in';

jest.setTimeout(600_000);

const QUESTION = /question ([0-9a-f-]{36})/;

/** Relay A: its agents ask relay-b's, answer its questions, and (architect) are asked back. */
const replyOfA = (body: Record<string, unknown>): StandInReply => {
  const result = toolResult(body);
  const t = task(body);
  if (result === null) {
    if (t === 'task-list') return use('list_remote_agents', { relay: 'relay-b' });
    if (t === 'task-depth')
      return firstText(body).includes('hop2')
        ? use('ask_agent', { agent: 'ceo@relay-b', text: `hop3 ${t}` })
        : use('ask_agent', { agent: 'qa@relay-b', text: `hop1 ${t}` });
    return use('ask_agent', { agent: 'qa', relay: 'relay-b', text: `Please help with ${t}` });
  }
  const asked = QUESTION.exec(result)?.[1];
  const answered = messagesOf(body).some((m) => JSON.stringify(m.content).includes('"answer_question"'));
  if (asked !== undefined && !answered)
    return use('answer_question', { id: asked, answer: '2', relay: 'relay-b' });
  return say(`A got: ${result}`);
};

/** Relay B: qa answers, asks a question, or hands work back across the relays. */
const replyOfB = (body: Record<string, unknown>): StandInReply => {
  const result = toolResult(body);
  const t = task(body);
  if (result !== null) return say(`B got: ${result}`);
  if (t === 'task-full' || t === 'task-prompt')
    return use('ask_question', { text: 'CSV or JSON?', options: ['CSV', 'JSON'] });
  if (t === 'task-cycle') return use('ask_agent', { agent: 'engineer@relay-a', text: `back to you ${t}` });
  if (t === 'task-depth') return use('ask_agent', { agent: 'architect@relay-a', text: `hop2 ${t}` });
  return say('four');
};

/**
 * R1–R3 with two real Summon processes (two PostgreSQL databases, two Slack stand-ins, two
 * Anthropic stand-ins), paired through `summon relays pair`.
 */
describe('paired relays (two summon serve processes)', () => {
  let a: RelaySide;
  let b: RelaySide;

  /** dana asks A's engineer in a new thread of A's channel; resolves with A's reply text. */
  const askOnA = async (t: string) => {
    const ts = await mentionOn(a, 'engineer', t);
    return { ts, reply: await replyIn(a, ts) };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([openRelaySide('relay-a', replyOfA), openRelaySide('relay-b', replyOfB)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('R1: pairs through a one-time offer; the offer cannot be used twice', async () => {
    const offered = await a.cli(['relays', 'pair', '--level', 'full']);
    expect(offered.code).toBe(0);
    const offer = /summon relays pair --accept (\S+)/.exec(offered.stdout)?.[1] ?? '';
    expect(offer).toMatch(/^summon-relay-offer:/);
    const accepted = await b.cli(['relays', 'pair', '--accept', offer, '--level', 'full']);
    expect(accepted.stderr).toBe('');
    expect(accepted.stdout).toContain('Paired with relay relay-a');
    expect(accepted.stdout).toContain('Ours may there: full');
    // One time only: a second relay presenting it is refused.
    const again = await b.cli(['relays', 'pair', '--accept', offer]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/paired with a relay named relay-a already|used already/);
    const listed = await a.cli(['relays', 'list']);
    expect(listed.stdout).toMatch(/relay-b\s+\S+\s+full\s+full\s+active/);
  });

  it('R2, N3–N5, N11, N12, N14: an agent on A asks one on B; the reply is its tool result', async () => {
    const { ts, reply } = await askOnA('task-ask');
    expect(reply).toContain('A got: qa on relay relay-b replied:\nfour');
    // B's thread: opened with ↗ relay-a (N4), the folded note from relay-a (N5) with its badge
    // linking to A's session (N3).
    const marker = b.slack.messages.find((m) => m.threadTs === null && m.text.includes('↗ relay-a'));
    expect(marker).toBeDefined();
    const thread = b.slack.inThread(CHANNEL, marker?.ts ?? '');
    const note = thread.find((m) => JSON.stringify(m.blocks ?? []).includes('note from relay-a'));
    const blocks = JSON.stringify(note?.blocks ?? []);
    expect(blocks).toMatch(/note from relay-a · task-ask/);
    expect(blocks).toContain(`<${a.url}/relay/v1/sessions/`);
    // N1: the note is shown under the sending agent's name (its relay in the row and badge).
    expect(note?.username).toBe('engineer');
    const link = /<(http:\/\/127\.0\.0\.1:\d+\/relay\/v1\/sessions\/[0-9a-f-]+)\|/.exec(blocks)?.[1] ?? '';
    // N3: a person's browser is sent to A's thread on A's Slack (its permalink), nothing else.
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(
      `https://acme.slack.com/archives/${CHANNEL}/p${ts.replace('.', '')}`,
    );
    expect(await opened.text()).toBe('');
    // N12: B's model request begins with the header line, which the chat does not show.
    const request = b.model.requests.find((r) => firstText(r.body).includes('task-ask'));
    expect(firstText(request?.body).split('## Prompt')[1]?.trim()).toMatch(
      /^\[Remote prompt from an agent on relay "relay-a" · session "task-ask" · [^\]]+ · acting for the user\]/,
    );
    expect(thread.some((m) => m.text.includes('[Remote prompt'))).toBe(false);
    // N14: the remote turn sends no "reply ready" or "failed" notification.
    expect(thread.some((m) => /turn failed|reply ready/i.test(m.text))).toBe(false);
    expect(thread.some((m) => m.blocks === null && m.text === 'four')).toBe(true);
  });

  it('N3: a session without a link (terminal) is a plain page naming it by title; an unknown one is 404', async () => {
    const terminal = await a.store.inWorkspace(a.workspaceId, async (tx) => {
      const [space] = await tx.spaces.list(a.workspaceId);
      const conversation = await tx.conversations.insert(a.workspaceId, {
        spaceId: space?.id ?? '',
        platform: 'terminal',
        threadId: 'terminal-thread-1',
        title: 'nightly digest',
        ownerAgentId: null,
        createdByAgentId: null,
      });
      await tx.messages.insert(a.workspaceId, {
        conversationId: conversation.id,
        authorKind: 'person',
        authorAgentId: null,
        authorMemberId: null,
        text: 'secret figures 42',
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      });
      return conversation;
    });
    const page = await fetch(`${a.url}/relay/v1/sessions/${terminal.id}`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Session "nightly digest" on relay relay-a');
    expect(text).not.toContain('secret figures');
    const unknown = await fetch(`${a.url}/relay/v1/sessions/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${a.url}/relay/v1/sessions/not-an-id`)).status).toBe(404);
  });

  it('N13: a question asked on B is answered by A’s agent at full', async () => {
    const { reply } = await askOnA('task-full');
    expect(reply).toContain('Answered: JSON');
    expect(reply).toContain('replied:\nB got: Answer: JSON');
    await b.settle();
  });

  it('N13, R1: at prompt, A’s agent may not answer; a person on B still can', async () => {
    await b.store.inWorkspace(b.workspaceId, async (tx) => {
      const settings = await tx.relays.settings(b.workspaceId);
      await tx.relays.setSettings(b.workspaceId, {
        ...settings,
        accepted: [{ relay: 'relay-a', level: 'prompt' }],
      });
    });
    const asked = askOnA('task-prompt');
    const question = await waitFor(async () => {
      const marker = b.slack.messages.find(
        (m) =>
          m.threadTs === null &&
          m.text.includes('↗ relay-a') &&
          b.slack.inThread(CHANNEL, m.ts).some((x) => JSON.stringify(x.blocks ?? []).includes('task-prompt')),
      );
      return marker ?? null;
    }, 120_000);
    // A's answer is refused; A's engineer says so, the question still waits on B.
    const refused = await waitFor(
      async () =>
        a.model.requests.find((r) =>
          (toolResult(r.body) ?? '').includes('answer_question refused by relay relay-b'),
        ) ?? null,
      120_000,
    );
    expect(toolResult(refused.body)).toContain('needs "full"');
    // dana answers in B's thread; B's turn goes on.
    const reply = eventFrom(
      'message-thread-reply',
      { ts: b.slack.addPersonMessage(CHANNEL, question.ts), thread_ts: question.ts, user: DANA, text: '1' },
      'EvAnswerOnB',
    );
    expect((await deliver(`${b.url}/slack/events`, reply)).status).toBe(200);
    expect((await asked).reply).toContain('answer_question refused');
    await b.settle();
    await b.store.inWorkspace(b.workspaceId, async (tx) => {
      const settings = await tx.relays.settings(b.workspaceId);
      await tx.relays.setSettings(b.workspaceId, {
        ...settings,
        accepted: [{ relay: 'relay-a', level: 'full' }],
      });
    });
  });

  it('R3, M20: a cycle A → B → A and a fourth hop are refused with the reason', async () => {
    const cycle = await askOnA('task-cycle');
    expect(cycle.reply).toContain(
      'ask_agent refused: engineer on relay-a is already in this chain (engineer@relay-a → qa@relay-b)',
    );
    const depth = await askOnA('task-depth');
    expect(depth.reply).toContain(
      'ask_agent refused: this chain is already 3 deep (engineer@relay-a → qa@relay-b → architect@relay-a)',
    );
    await Promise.all([a.settle(), b.settle()]);
  });

  it('N15: acceptRemoteAgentPrompts false refuses every prompt from paired relays', async () => {
    const before = (await b.runs()).length;
    await b.store.inWorkspace(b.workspaceId, async (tx) => {
      const settings = await tx.relays.settings(b.workspaceId);
      await tx.relays.setSettings(b.workspaceId, { ...settings, acceptRemoteAgentPrompts: false });
    });
    const { reply } = await askOnA('task-off');
    expect(reply).toContain('does not accept prompts from other relays');
    expect((await b.runs()).length).toBe(before);
    await b.store.inWorkspace(b.workspaceId, async (tx) => {
      const settings = await tx.relays.settings(b.workspaceId);
      await tx.relays.setSettings(b.workspaceId, { ...settings, acceptRemoteAgentPrompts: true });
    });
  });

  it('R3, M20: B checks the chain itself: depth 3 or the receiving agent in it is refused, logged, nothing runs', async () => {
    // A hand-made request signed with A's key, as a client that did not check would send it.
    const { keys, keyId } = await a.store.inWorkspace(a.workspaceId, async (tx) => ({
      keys: await tx.relays.keyPair(a.workspaceId, () => {
        throw new Error('A has a key pair since pairing');
      }),
      keyId: (await tx.relays.findActiveByName(a.workspaceId, 'relay-b'))?.remotePairingId ?? '',
    }));
    const path = '/relay/v1/prompts';
    const send = async (chain: string[], depth: number) => {
      const body = JSON.stringify({
        agent: 'qa',
        text: `hand-made task-chain ${depth}`,
        space: null,
        sender: { agent: 'engineer', model: null, session: { title: null, url: null } },
        chain,
        depth,
      });
      const response = await fetch(`${b.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(keys.privateKey, { method: 'POST', path, keyId, body }, new Date()),
        },
        body,
      });
      const error = ((await response.json()) as { error?: { code: string; message: string } }).error;
      return [response.status, error?.code, error?.message ?? ''] as const;
    };
    const before = (await b.runs()).length;
    const deep = await send(['engineer@relay-a', 'architect@relay-a', 'ceo@relay-a'], 3);
    expect(deep.slice(0, 2)).toEqual([409, 'limit']);
    expect(deep[2]).toContain('this chain is already 3 deep');
    const cycle = await send(['qa@relay-b', 'engineer@relay-a'], 2);
    expect(cycle.slice(0, 2)).toEqual([409, 'limit']);
    expect(cycle[2]).toContain('qa on relay-b is already in this chain');
    expect((await b.runs()).length).toBe(before);
    // The log lines reach the test through the child's stderr, maybe after the answers.
    await waitFor(
      async () =>
        b.server.lines.filter(
          (l) => l.includes('relay request refused') && (JSON.parse(l) as { code: string }).code === 'limit',
        ).length >= 2,
    );
  });

  it('R1: a forged signature, an expired timestamp, a replay and a revoked pairing are refused, logged, and nothing runs', async () => {
    const { keys, keyId } = await a.store.inWorkspace(a.workspaceId, async (tx) => ({
      keys: await tx.relays.keyPair(a.workspaceId, () => {
        throw new Error('A has a key pair since pairing');
      }),
      keyId: (await tx.relays.findActiveByName(a.workspaceId, 'relay-b'))?.remotePairingId ?? '',
    }));
    const path = '/relay/v1/prompts';
    const body = JSON.stringify({
      agent: 'qa',
      text: 'hand-made task-forged',
      space: null,
      sender: { agent: 'engineer', model: null, session: { title: null, url: null } },
      chain: ['engineer@relay-a'],
      depth: 1,
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${b.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const codeOf = async (response: Response) =>
      ((await response.json()) as { error?: { code: string } }).error?.code;
    const before = (await b.runs()).length;

    const forged = await post(
      signedHeaders(newKeyPair().privateKey, { method: 'POST', path, keyId, body }, new Date()),
    );
    expect([forged.status, await codeOf(forged)]).toEqual([401, 'bad_signature']);
    const expired = await post(
      signedHeaders(
        keys.privateKey,
        { method: 'POST', path, keyId, body },
        new Date(Date.now() - 10 * 60_000),
      ),
    );
    expect([expired.status, await codeOf(expired)]).toEqual([401, 'stale_timestamp']);
    expect((await b.runs()).length).toBe(before);

    const valid = signedHeaders(keys.privateKey, { method: 'POST', path, keyId, body }, new Date());
    expect((await post(valid)).status).toBe(200);
    const replayed = await post(valid);
    expect([replayed.status, await codeOf(replayed)]).toEqual([401, 'replayed']);
    await b.settle();
    expect((await b.runs()).length).toBe(before + 1);

    // R1: revoking on B tells A (signed), which revokes its side too.
    const revokedOnB = await b.cli(['relays', 'revoke', 'relay-a']);
    expect(revokedOnB.stdout).toContain('Revoked the pairing with relay relay-a.');
    expect(revokedOnB.stdout).toContain('Relay relay-a was told and revoked its side too.');
    expect((await a.cli(['relays', 'list'])).stdout).toMatch(/relay-b\s.*revoked \d{4}-/);
    await waitFor(async () => a.server.lines.some((l) => l.includes('a paired relay revoked the pairing')));
    const revoked = await post(
      signedHeaders(keys.privateKey, { method: 'POST', path, keyId, body }, new Date()),
    );
    expect([revoked.status, await codeOf(revoked)]).toEqual([403, 'revoked']);
    const { reply } = await askOnA('task-revoked');
    expect(reply).toContain('the pairing with relay relay-b was revoked');
    // R1 `read`: a revoked pairing lists nothing either.
    expect((await askOnA('task-list')).reply).toContain(
      'list_remote_agents refused by relay relay-b: the pairing with relay relay-b was revoked',
    );
    expect((await b.runs()).length).toBe(before + 1);
    const refusals = () =>
      b.server.lines
        .filter((l) => l.includes('relay request refused'))
        .map((l) => (JSON.parse(l) as { code: string }).code);
    await waitFor(async () => refusals().includes('revoked'));
    expect(refusals()).toEqual(
      expect.arrayContaining(['bad_signature', 'stale_timestamp', 'replayed', 'revoked']),
    );
  });

  it('R1: revoking while the other relay is unreachable still revokes here, and says so', async () => {
    await pairSides(a, b);
    expect((await a.cli(['relays', 'list'])).stdout).toMatch(/relay-b\s.*active/);
    await b.server.kill('SIGTERM');
    const revoked = await a.cli(['relays', 'revoke', 'relay-b']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('Revoked the pairing with relay relay-b.');
    expect(revoked.stdout).toMatch(/Relay relay-b was not told \(relay relay-b could not be reached/);
    expect((await a.cli(['relays', 'list'])).stdout).not.toMatch(/active/);
  });
});
