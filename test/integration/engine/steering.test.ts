import { z } from 'zod';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import type { ThreadEntry } from '../../../src/bots/terminal';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import type { RunRecord } from '../../../src/core/model/records';
import type { ToolOutcome } from '../../../src/core/ports/turn-tools';
import { defineTool } from '../../../src/core/tools/tool-definition';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { AnthropicStandIn, type StandInReply } from '../../support/stand-ins/anthropic-stand-in';

const API_KEY = 'sk-ant-steering-test';
const STEER = 'actually, use the staging database';
/** P16: how the steering message reads to the model (src/core/prompt/steering-prompt.ts). */
const STEERED_PROMPT = `you (person) wrote in the thread while you were working:\n\n${STEER}`;

type Message = { role: string; content: unknown };
type Block = { type: string; text?: string; tool_use_id?: string };

/** A promise the test resolves, and one that tells it the other side started. */
function latch() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A tool that works until the test lets it finish: the turn is running, between two model
 * calls, when the test sends its message. Read-only, so no approval is asked (G1).
 */
function ciTool() {
  const started = latch();
  const finish = latch();
  const tool = defineTool({
    name: 'wait_for_ci',
    description: 'Wait for the CI run of the current branch.',
    input: z.object({}),
    access: 'read',
    modes: ['chat'],
    classify: () => [],
    run: async (): Promise<ToolOutcome> => {
      started.open();
      await finish.opened;
      return { ok: true, output: 'CI passed' };
    },
  });
  return { tool, started: started.opened, finish: finish.open };
}

const messagesOf = (standIn: AnthropicStandIn, n: number): Message[] =>
  ((standIn.requests[n]?.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
const textOf = (message: Message | undefined): string[] =>
  typeof message?.content === 'string'
    ? [message.content]
    : ((message?.content ?? []) as Block[]).flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : []));
const statusRows = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((e) =>
    e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message.content.card.rows] : [],
  );

/** A model call that uses `wait_for_ci`, then one that answers. */
const ciThenAnswer = (): StandInReply[] => [
  { kind: 'stream', blocks: [{ type: 'tool_use', name: 'wait_for_ci', input: {} }], stopReason: 'tool_use' },
  { kind: 'stream', blocks: [{ type: 'text', chunks: ['Migrated on staging.'] }] },
];

describe.each(ENGINE_SETUPS)('P16: steering a running built-in turn on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let standIn: AnthropicStandIn;
  afterEach(async () => {
    await h?.close();
    await standIn?.close();
  });

  async function open() {
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY });
    const ci = ciTool();
    const runner = new AnthropicRunner({
      apiKey: API_KEY,
      baseUrl: standIn.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
    h = await openEngineHarness(setup, runner, {}, { tools: createToolKit([ci.tool]) });
    return ci;
  }

  const runningRun = () => waitFor(async () => (await h.runs()).find((r) => r.status === 'running') ?? null);
  const steeringRows = (run: RunRecord) =>
    h.store.transaction((tx) =>
      tx.query<{ state: string }>('SELECT state FROM run_steering WHERE run_id = $1 ORDER BY seq', [run.id]),
    );

  it('P16, N10, T2: a message while the turn works joins its next model request; no second turn; the card shows it', async () => {
    const ci = await open();
    const answering = latch();
    const [useCi, answer] = ciThenAnswer();
    if (useCi === undefined || answer?.kind !== 'stream') throw new Error('the script changed');
    standIn.script(useCi, { ...answer, after: answering.opened });
    await h.type('@engineer migrate the billing database');
    await ci.started;
    const run = await runningRun();
    // The message is received where no turn runs (a `web` process) when processes are apart.
    if (setup.redis) h.receiveInFrontEnd();

    await h.type(STEER);
    // Stored for the turn, not as a run of its own.
    await waitFor(async () => ((await steeringRows(run))[0]?.state === 'pending' ? true : null));
    expect(await h.runs()).toHaveLength(1);
    ci.finish();
    // T2: the boundary's checkpoint holds it (a resumed turn keeps it), and it is taken with it.
    const checkpoint = await waitFor(async () => {
      const stored = await h.read((tx) => tx.checkpoints.find(run.id));
      return JSON.stringify(stored?.checkpoint.exchanges ?? []).includes(STEER) ? stored : null;
    });
    expect(checkpoint.checkpoint).toMatchObject({ round: null, rounds: 1 });
    expect(checkpoint.checkpoint).not.toHaveProperty('steered');
    expect(await steeringRows(run)).toEqual([{ state: 'taken' }]);
    answering.open();

    const [finished, ...others] = await h.settled();
    expect(others).toEqual([]);
    expect(finished).toMatchObject({ id: run.id, status: 'succeeded' });
    expect(standIn.requests).toHaveLength(2);
    // The second request: the tool result, then the person's message, in the same user message.
    const second = messagesOf(standIn, 1);
    const last = second[second.length - 1];
    expect(last?.role).toBe('user');
    expect(((last?.content ?? []) as Block[]).map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(textOf(last)).toEqual([STEERED_PROMPT]);
    // The first request did not have it: it joined at the tool boundary.
    expect(JSON.stringify(messagesOf(standIn, 0))).not.toContain(STEER);
    expect(await steeringRows(run)).toEqual([{ state: 'taken' }]);

    // N10: shown as part of the turn (a row of its card); the person's message is in full.
    await waitFor(async () => (statusRows(h.thread(1))[0]?.length === 2 ? true : null));
    expect(statusRows(h.thread(1))[0]).toEqual(['✓ wait_for_ci: {}', `↪ @you: ${STEER}`]);
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer migrate the billing database',
      'status(done) engineer',
      `you: ${STEER}`,
      'engineer: Migrated on staging.',
    ]);
  });

  it('P16: with `whileRunning: queue` the message waits and starts a second turn, as before', async () => {
    const ci = await open();
    await h.read((tx) => tx.spaces.update(h.local.space.id, { whileRunning: 'queue' }));
    standIn.script(...ciThenAnswer(), {
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['Switched to staging.'] }],
    });
    await h.type('@engineer migrate the billing database');
    await ci.started;
    const run = await runningRun();
    // Naming the running agent itself: with `steer` this would join the turn.
    await h.type(`@engineer ${STEER}`);
    const queued = await waitFor(async () => (await h.runs()).find((r) => r.status === 'queued') ?? null);
    expect(queued).toMatchObject({ agentId: run.agentId });
    expect(queued.triggerMessageId).not.toBe(run.triggerMessageId);
    ci.finish();

    const all = await h.settled(2);
    expect(all.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(standIn.requests).toHaveLength(3);
    expect(JSON.stringify(messagesOf(standIn, 1))).not.toContain(STEER);
    // The second turn is asked about the message itself.
    expect(textOf(messagesOf(standIn, 2)[0]).join('\n')).toContain(STEER);
    expect(await steeringRows(run)).toEqual([]);
  });

  it('P16: a message naming another agent is not steering: that agent starts, the running turn is not told', async () => {
    const ci = await open();
    standIn.script(...ciThenAnswer());
    standIn.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['qa here'] }] });
    await h.type('@engineer migrate the billing database');
    await ci.started;
    const run = await runningRun();
    await h.type('@qa please check the migration plan');
    const qaRun = await waitFor(async () => (await h.runs()).find((r) => r.id !== run.id) ?? null);
    expect(qaRun.agentId).toBe(await h.agentId('qa'));
    ci.finish();

    const all = await h.settled(2);
    expect(all.every((r) => r.status === 'succeeded')).toBe(true);
    const engineerCalls = standIn.requests.filter((r) => JSON.stringify(r.body).includes('tool_result'));
    expect(engineerCalls).toHaveLength(1);
    expect(JSON.stringify(engineerCalls[0]?.body)).not.toContain('please check the migration plan');
    expect(await steeringRows(run)).toEqual([]);
  });

  it('P16: a message after the turn finished starts a new turn', async () => {
    const ci = await open();
    standIn.script(...ciThenAnswer(), {
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['Switched to staging.'] }],
    });
    await h.type('@engineer migrate the billing database');
    await ci.started;
    ci.finish();
    const [first] = await h.settled(1);

    await h.type(STEER);
    const all = await h.settled(2);
    expect(all.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(all[1]?.id).not.toBe(first?.id);
    expect(textOf(messagesOf(standIn, 2)[0]).join('\n')).toContain(STEER);
    expect(await steeringRows(first as RunRecord)).toEqual([]);
  });

  it('P16: a message the turn had no boundary left to take is not lost: it starts a turn of its own', async () => {
    await open();
    const answering = latch();
    // The turn's one model call answers without a tool call, once the message is stored.
    standIn.script(
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Migrated.'] }], after: answering.opened },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Switched to staging.'] }] },
    );
    await h.type('@engineer migrate the billing database');
    const run = await runningRun();
    await waitFor(async () => (standIn.requests.length === 1 ? true : null));
    await h.type(STEER);
    await waitFor(async () => ((await steeringRows(run))[0]?.state === 'pending' ? true : null));
    answering.open();

    const all = await h.settled(2);
    expect(all.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(await steeringRows(run)).toEqual([{ state: 'queued' }]);
    // The second turn was started by the message (its trigger) and is asked about it.
    const stored = await h.read((tx) => tx.messages.findById(all[1]?.triggerMessageId ?? ''));
    expect(stored?.text).toBe(STEER);
    expect(textOf(messagesOf(standIn, 1)[0]).join('\n')).toContain(STEER);
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer migrate the billing database',
      'status(done) engineer',
      `you: ${STEER}`,
      'engineer: Migrated.',
      'status(done) engineer',
      'engineer: Switched to staging.',
    ]);
  });
});
