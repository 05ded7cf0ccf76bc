import { signedHeaders } from '../../../src/adapters/relay-http/relay-signature';
import { ACTIONS } from '../../../src/bots/slack/outbound/slack-cards';
import { waitFor } from '../../support/engine-harness';
import { DANA, openRelaySide, type RelaySide } from '../../support/relay-pair';
import {
  acceptAt,
  mentionOn,
  pairSides,
  replyIn,
  say,
  task,
  toolResults,
  use,
} from '../../support/relay-script';
import { buttonValue, clickPayload } from '../../support/slack-clicks';
import { CHANNEL, deliver } from '../../support/slack-delivery';
import type { StandInReply } from '../../support/stand-ins/anthropic-stand-in';

jest.setTimeout(600_000);

/** The approval card's id, once the test has seen it (A's architect then tries to answer it). */
let approvalId = '';

/** Relay A: engineer lists relay-b's agents or asks one; architect tries to answer the approval. */
const replyOfA = (body: Record<string, unknown>): StandInReply => {
  const results = toolResults(body);
  const steps: Record<string, Array<[string, Record<string, unknown>]>> = {
    'task-read': [
      ['list_remote_agents', { relay: 'relay-c' }],
      ['list_remote_agents', { relay: 'relay-b' }],
      ['ask_agent', { agent: 'qa@relay-b', text: 'at read only task-read' }],
    ],
    'task-approve': [['ask_agent', { agent: 'qa', relay: 'relay-b', text: 'after approval task-approve' }]],
    'task-agent-approves': [['answer_question', { id: approvalId, answer: 'approve' }]],
  };
  const next = steps[task(body)]?.[results.length];
  return next === undefined ? say(`A got: ${results.join('\n---\n')}`) : use(next[0], next[1]);
};

/**
 * R1 `read` and N13's person-only approvals across relays, with two real Summon processes
 * paired through `summon relays pair` (as `paired-relays.test.ts`).
 */
describe('paired relays: the read level and approvals of calls to another relay', () => {
  let a: RelaySide;
  let b: RelaySide;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      openRelaySide('relay-a', replyOfA),
      openRelaySide('relay-b', () => say('four')),
    ]);
    await pairSides(a, b);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('R1: at read, list_remote_agents lists the other relay’s agents; unpaired is refused; prompts need more', async () => {
    await acceptAt(b, 'relay-a', 'read');
    const reply = await replyIn(a, await mentionOn(a, 'engineer', 'task-read'));
    const [unpaired, listed, prompted] = reply.replace('A got: ', '').split('\n---\n');
    expect(unpaired).toContain('this workspace is not paired with a relay named "relay-c"');
    expect(listed).toContain('Agents on relay relay-b:');
    expect(listed).toMatch(/^- qa@relay-b/m);
    expect(prompted).toContain('ask_agent refused by relay relay-b');
    expect(prompted).toContain('needs "prompt"');
    expect(await b.runs()).toEqual([]);
    await acceptAt(b, 'relay-a', 'full');
  });

  it('N13, G4: an approval of a call to another relay is refused to agents (local and remote) and decided by a person', async () => {
    await a.store.inWorkspace(a.workspaceId, (tx) =>
      tx.guardrails.upsert(a.workspaceId, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'network',
        decision: 'ask',
      }),
    );
    const ts = await mentionOn(a, 'engineer', 'task-approve');
    const card = await waitFor(
      async () => a.slack.inThread(CHANNEL, ts).find((m) => buttonValue(m, ACTIONS.approve) !== null) ?? null,
      120_000,
    );
    approvalId = buttonValue(card, ACTIONS.approve) ?? '';
    expect(JSON.stringify(card.blocks)).toContain('ask_agent');
    // Nothing reached relay-b while the card waits.
    expect(await b.runs()).toEqual([]);

    // An agent of this relay tries answer_question with the approval's id: refused.
    const local = await replyIn(a, await mentionOn(a, 'architect', 'task-agent-approves'));
    expect(local).toContain(`${approvalId} is an approval, not a question`);

    // An agent of relay-b (paired at full) tries through the protocol: refused, logged.
    const { keys, keyId } = await b.store.inWorkspace(b.workspaceId, async (tx) => ({
      keys: await tx.relays.keyPair(b.workspaceId, () => {
        throw new Error('B has a key pair since pairing');
      }),
      keyId: (await tx.relays.findActiveByName(b.workspaceId, 'relay-a'))?.remotePairingId ?? '',
    }));
    const path = '/relay/v1/answer';
    const body = JSON.stringify({ question: approvalId, answer: 'approve', by: 'qa' });
    const remote = await fetch(`${a.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(keys.privateKey, { method: 'POST', path, keyId, body }, new Date()),
      },
      body,
    });
    const refusal = ((await remote.json()) as { error?: { code: string } }).error?.code;
    expect([remote.status, refusal]).toEqual([403, 'person_only']);
    // The log line reaches the test through the child's stderr, maybe after the answer.
    await waitFor(async () =>
      a.server.lines.some((l) => l.includes('relay request refused') && l.includes('person_only')),
    );
    const pending = await a.store.inWorkspace(a.workspaceId, (tx) => tx.approvals.findById(approvalId));
    expect(pending?.status).toBe('pending');
    expect(await b.runs()).toEqual([]);

    // dana (an owner) approves on the card: the call goes through, and B's reply comes back.
    expect((await deliver(`${a.url}/slack/events`, clickPayload(card, DANA, ACTIONS.approve))).status).toBe(
      200,
    );
    expect(await replyIn(a, ts)).toContain('A got: qa on relay relay-b replied:\nfour');
    expect((await b.runs()).length).toBe(1);
  });
});
