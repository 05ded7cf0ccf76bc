import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import type { AgentToolTimings } from '../../../src/core/engine/agent-tools';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import type { RunRecord } from '../../../src/core/model/records';
import type { ToolOutcome } from '../../../src/core/ports/turn-tools';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../support/scripted-runner';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

/** What each tool call returned, in call order, by agent. */
type Calls = { agent: string; tool: string; outcome: ToolOutcome }[];

/**
 * A turn that makes one tool call (input computed from the request) and then replies with
 * `reply(outcome)`, as a model would after reading the tool result.
 */
const calling = (
  calls: Calls,
  tool: string,
  input: (request: Parameters<Script>[0]) => unknown,
  reply: (outcome: ToolOutcome) => string,
): Script =>
  async function* (request) {
    yield { type: 'tool_start', callId: `${tool}-1`, tool, summary: tool };
    const outcome = await request.tools.call(
      { callId: `${tool}-1`, name: tool, input: input(request) },
      request.signal,
    );
    calls.push({ agent: request.agent.name, tool, outcome });
    yield { type: 'tool_end', callId: `${tool}-1`, ok: outcome.ok };
    yield { type: 'final', text: reply(outcome) };
  };

const say =
  (text: string): Script =>
  () => [{ type: 'final', text }];

describe.each(ENGINE_SETUPS)('M23, N11, N13: agent-to-agent tools through the terminal on $name', (setup) => {
  let h: EngineHarness;
  let calls: Calls;
  let runner: ScriptedRunner;
  const open = async (
    scripts: Record<string, Script>,
    timings: Partial<AgentToolTimings> = {},
    concurrency = 4,
  ) => {
    runner = new ScriptedRunner(scripts);
    h = await openEngineHarness(
      setup,
      runner,
      {},
      {
        tools: createToolKit([], { agentTools: timings }),
        concurrency,
      },
    );
    return h;
  };
  beforeEach(() => {
    calls = [];
  });
  afterEach(() => h?.close());

  const lines = (n: number) => h.thread(n).map(describeEntry);
  const shows = (n: number, line: string) => waitFor(async () => lines(n).includes(line));
  const outcomeOf = (agent: string, tool: string) =>
    waitFor(async () => calls.find((c) => c.agent === agent && c.tool === tool)?.outcome ?? null);
  const runOf = async (agent: string) => {
    const id = await h.agentId(agent);
    return (await h.runs()).filter((r: RunRecord) => r.agentId === id);
  };
  /** Takes the agent out of the local space, so it is reached in a new conversation (N4). */
  const leaveSpace = async (agent: string) => {
    const id = await h.agentId(agent);
    await h.read(async (tx) => {
      const participants = await tx.spaces.listParticipants(h.local.space.id);
      await tx.spaces.setParticipants(
        h.local.space.id,
        participants.filter((p) => !(p.kind === 'agent' && p.agentId === id)),
      );
    });
  };

  it('M23, N1: send_to_agent posts a note in this conversation for a participant, returns at once, and the target answers', async () => {
    await open({
      engineer: calling(
        calls,
        'send_to_agent',
        () => ({ agent: 'qa', text: 'Please check the login flow on staging.' }),
        (o) => `Asked qa. (${o.output})`,
      ),
      qa: say('Login flow checked: all good.'),
    });
    await h.type('@engineer get the login flow checked');
    await h.settled(2);
    expect((await outcomeOf('engineer', 'send_to_agent')).output).toBe(
      'Sent to qa in this conversation; it is working on it. Its reply will appear there.',
    );
    await shows(1, 'qa: Login flow checked: all good.');
    expect(lines(1)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^note\((open|folded)\) engineer: note from this relay · /),
        'engineer: Asked qa. (Sent to qa in this conversation; it is working on it. Its reply will appear there.)',
      ]),
    );
    // N12: the target is told the prompt came from an agent; M20: one hop deeper.
    expect(runner.requests.find((r) => r.agent.name === 'qa')?.prompt).toContain(
      'Remote prompt from an agent',
    );
    const [qaRun] = await runOf('qa');
    expect(qaRun).toMatchObject({
      depth: 2,
      startedByAgentId: await h.agentId('engineer'),
      wakeChain: [await h.agentId('engineer'), await h.agentId('qa')],
    });
  });

  it('N4: send_to_agent to an agent outside the space starts a new conversation marked via agent', async () => {
    await open({
      engineer: calling(
        calls,
        'send_to_agent',
        () => ({ agent: 'architect', text: 'Draft a design note for the cache.' }),
        () => 'Handed to architect.',
      ),
      architect: say('Design note drafted.'),
    });
    await leaveSpace('architect');
    await h.type('@engineer get a design note for the cache');
    await h.settled(2);
    const [engineerRun] = await runOf('engineer');
    const title = await h.read(
      async (tx) => (await tx.conversations.findById(engineerRun?.conversationId ?? ''))?.title,
    );
    expect((await outcomeOf('engineer', 'send_to_agent')).output).toBe(
      'Sent to architect in a new conversation in space general ("Draft a design note for the cache."); it is working on it. Its reply will appear there.',
    );
    await shows(2, 'architect: Design note drafted.');
    expect(lines(2)[0]).toBe(`system: via agent · "${title}"`);
    expect(lines(2)[1]).toMatch(/^note\((open|folded)\) engineer: note from this relay · /);
    // N3: the note's badge links back to thread 1, where engineer works (`/thread 1`). N9: the
    // note is folded once architect's turn has finished, just after its reply is shown.
    const folded = /\[2\] ▸ note #\d+ note from this relay · .* ↪ \[1\]/;
    await waitFor(async () => folded.test(h.screen()));
    const [architectRun] = await runOf('architect');
    const conversation = await h.read((tx) => tx.conversations.findById(architectRun?.conversationId ?? ''));
    expect(conversation).toMatchObject({
      ownerAgentId: await h.agentId('architect'),
      createdByAgentId: await h.agentId('engineer'),
      title: 'Draft a design note for the cache.',
    });
  });

  it('N11: ask_agent waits (blocked) for the reply, gets it as the tool result, and the asker then replies in its thread', async () => {
    const qa = held('All 112 tests pass.');
    await open({
      engineer: calling(
        calls,
        'ask_agent',
        () => ({ agent: 'qa', text: 'Do the tests pass on main?' }),
        (o) => `QA says: ${o.output}`,
      ),
      qa: qa.script,
    });
    await h.type('@engineer are we green?');
    await qa.started;
    // A12: the waiting run is blocked, not stalled.
    await waitFor(async () => ((await runOf('engineer'))[0]?.liveness === 'blocked' ? true : null));
    qa.release();
    await h.settled(2);
    expect((await outcomeOf('engineer', 'ask_agent')).output).toBe('qa replied:\nAll 112 tests pass.');
    const answer = 'engineer: QA says: qa replied:\nAll 112 tests pass.';
    await shows(1, answer);
    const shown = lines(1);
    expect(shown.indexOf('qa: All 112 tests pass.')).toBeLessThan(shown.indexOf(answer));
    expect((await runOf('engineer'))[0]).toMatchObject({ status: 'succeeded', liveness: 'ok' });
  });

  it('N11: ask_agent gives up after its timeout and says what is known', async () => {
    const qa = held('late answer');
    await open(
      {
        engineer: calling(
          calls,
          'ask_agent',
          () => ({ agent: 'qa', text: 'Anything failing?' }),
          () => 'Still waiting on qa.',
        ),
        qa: qa.script,
      },
      { askTimeoutMs: 300 },
    );
    await h.type('@engineer anything failing?');
    const outcome = await outcomeOf('engineer', 'ask_agent');
    expect(outcome).toEqual({
      ok: false,
      output:
        'qa has not replied within 300 ms (its turn is running); the question is in this conversation, and its reply will appear there. Tell the people you are still waiting.',
    });
    qa.release();
    await h.settled(2);
    await shows(1, 'qa: late answer');
  });

  it('N11, N13: an ask_agent that times out names the question the other agent waits on, and the asker answers it', async () => {
    await open(
      {
        engineer: async function* (request) {
          const asked = await request.tools.call(
            { callId: 'a', name: 'ask_agent', input: { agent: 'architect', text: 'Which export format?' } },
            request.signal,
          );
          calls.push({ agent: 'engineer', tool: 'ask_agent', outcome: asked });
          const id = /question ([0-9a-f-]{36})/.exec(asked.output)?.[1] ?? 'none';
          const answered = await request.tools.call(
            { callId: 'b', name: 'answer_question', input: { id, answer: 'JSON' } },
            request.signal,
          );
          calls.push({ agent: 'engineer', tool: 'answer_question', outcome: answered });
          yield { type: 'final', text: 'Answered architect.' };
        },
        architect: calling(
          calls,
          'ask_question',
          () => ({ text: 'CSV or JSON?' }),
          (o) => `Format: ${o.output}`,
        ),
      },
      { askTimeoutMs: 1500 },
    );
    await leaveSpace('architect');
    await h.type('@engineer settle the export format');
    await h.settled(2);
    const asked = await outcomeOf('engineer', 'ask_agent');
    expect(asked.output).toMatch(
      /^architect has not replied within 1500 ms \(its turn is running\); the question is in a new conversation in space general \("Which export format\?"\), and its reply will appear there\. It is waiting for an answer to question [0-9a-f-]{36}: CSV or JSON\? \(answer_question can answer it\)\. Tell the people you are still waiting\.$/,
    );
    expect(await outcomeOf('engineer', 'answer_question')).toEqual({ ok: true, output: 'Answered: JSON' });
    await shows(2, 'architect: Format: Answer: JSON');
  });

  it('M23: delegate_task runs a child turn and returns its result to the waiting caller', async () => {
    await open({
      engineer: calling(
        calls,
        'delegate_task',
        () => ({ agent: 'architect', task: 'Choose a cache eviction policy; answer with one line.' }),
        (o) => `Done. ${o.output}`,
      ),
      architect: say('LRU with a 10 minute TTL.'),
    });
    await h.type('@engineer add a cache');
    await h.settled(2);
    expect((await outcomeOf('engineer', 'delegate_task')).output).toBe(
      'architect finished the task:\nLRU with a 10 minute TTL.',
    );
    await shows(1, 'engineer: Done. architect finished the task:\nLRU with a 10 minute TTL.');
    const [child] = await runOf('architect');
    expect(child).toMatchObject({
      depth: 2,
      wakeChain: [await h.agentId('engineer'), await h.agentId('architect')],
      conversationId: (await runOf('engineer'))[0]?.conversationId,
    });
  });

  it('N14: a delegated turn that fails posts no "failed" message; the waiting agent reports it', async () => {
    await open({
      engineer: calling(
        calls,
        'delegate_task',
        () => ({ agent: 'architect', task: 'Pick a queue library.' }),
        (o) => `Could not get it done: ${o.output}`,
      ),
      architect: () => [{ type: 'error', message: 'model overloaded' }],
    });
    await h.type('@engineer choose a queue');
    await h.settled(2);
    expect(await outcomeOf('engineer', 'delegate_task')).toEqual({
      ok: false,
      output: "architect's task failed: model overloaded",
    });
    await shows(1, "engineer: Could not get it done: architect's task failed: model overloaded");
    expect(lines(1)).toContain('status(failed) architect');
    expect(lines(1).filter((line) => line.startsWith('system:'))).toEqual([]);
  });

  it('M20: delegate_task at depth 3 is refused with the reason, verbatim, as the tool result', async () => {
    const delegate = (to: string): Script =>
      calling(
        calls,
        'delegate_task',
        () => ({ agent: to, task: `Part of the release, for ${to}.` }),
        (o) => `Result: ${o.output}`,
      );
    await open({
      engineer: delegate('architect'),
      architect: delegate('qa'),
      qa: delegate('ceo'),
      ceo: say('never reached'),
    });
    await h.type('@engineer prepare the release');
    await h.settled(3);
    expect(await outcomeOf('qa', 'delegate_task')).toEqual({
      ok: false,
      output:
        'delegate_task refused: this chain is already 3 deep (engineer → architect → qa), and agents may hand work to one another at most 3 deep. Do the work yourself, or ask a person to start ceo.',
    });
    expect(await runOf('ceo')).toEqual([]);
    // The refusal went back up the chain as results.
    expect((await outcomeOf('engineer', 'delegate_task')).output).toContain('architect finished the task:');
  });

  it('M20: delegate_task back to an agent already in the chain is refused as a cycle', async () => {
    await open({
      engineer: calling(
        calls,
        'delegate_task',
        () => ({ agent: 'architect', task: 'Review the schema.' }),
        (o) => `Review: ${o.output}`,
      ),
      architect: calling(
        calls,
        'delegate_task',
        () => ({ agent: 'engineer', task: 'Write the migration.' }),
        (o) => `Could not delegate: ${o.output}`,
      ),
    });
    await h.type('@engineer change the schema');
    await h.settled(2);
    expect(await outcomeOf('architect', 'delegate_task')).toEqual({
      ok: false,
      output:
        'delegate_task refused: engineer is already in this chain (engineer → architect), and an agent is never handed work twice by one chain. Finish your part and reply; engineer will see it.',
    });
    expect(await runOf('engineer')).toHaveLength(1);
  });

  it('N13: ask_question shows a card with options; a person answers with /answer and the run continues', async () => {
    await open({
      engineer: calling(
        calls,
        'ask_question',
        () => ({ text: 'Which database should the report use?', options: ['PostgreSQL', 'SQLite'] }),
        (o) => `Going with it. (${o.output})`,
      ),
    });
    await h.type('@engineer build the report');
    await shows(1, 'question(pending) engineer: Which database should the report use?');
    await waitFor(async () => ((await runOf('engineer'))[0]?.liveness === 'blocked' ? true : null));
    expect(h.screen()).toContain('/answer <n> or /answer <text>');
    // P8: a viewer reads along but cannot answer.
    await h.read((tx) => tx.members.update(h.local.member.id, { role: 'viewer' }));
    await h.type('/answer 1');
    expect(h.screen()).toContain(
      "question #1: Your role (viewer) can read along but cannot answer an agent's question. An admin can change it.",
    );
    await h.read((tx) => tx.members.update(h.local.member.id, { role: 'owner' }));
    await h.type('/answer 3');
    expect(h.screen()).toContain('There is no option 3: answer 1–2, or in your own words.');
    await h.type('/answer 2');
    await h.settled(1);
    expect((await outcomeOf('engineer', 'ask_question')).output).toBe('Answer: SQLite');
    await shows(1, 'question(answered) engineer: Which database should the report use? = SQLite (you)');
    await shows(1, 'engineer: Going with it. (Answer: SQLite)');
    expect(h.screen()).toContain('answered by you: SQLite');
  });

  it('N13: an answer that lands while the card is being posted (before its ref is stored) still draws the card as answered', async () => {
    await open({
      engineer: calling(
        calls,
        'ask_question',
        () => ({ text: 'Which region?', options: ['eu', 'us'] }),
        (o) => `Deploying. (${o.output})`,
      ),
    });
    const post = h.platform.post.bind(h.platform);
    h.platform.post = async (thread, message) => {
      const ref = await post(thread, message);
      if (message.content.kind === 'question')
        expect(
          await h.engine.act(
            { kind: 'answer', questionId: message.content.card.questionId, answer: '1' },
            {
              platform: 'terminal',
              workspace: { slug: 'default' },
              senderId: 'you',
            },
          ),
        ).toEqual({ ok: true });
      return ref;
    };
    await h.type('@engineer deploy it');
    await h.settled(1);
    expect((await outcomeOf('engineer', 'ask_question')).output).toBe('Answer: eu');
    await shows(1, 'question(answered) engineer: Which region? = eu (you)');
    expect(h.thread(1).map(describeEntry)).not.toContain('question(pending) engineer: Which region?');
  });

  it('N13: a person’s reply in the thread (naming no agent) answers the waiting question instead of starting a turn', async () => {
    await open({
      engineer: calling(
        calls,
        'ask_question',
        () => ({ text: 'Which format?', options: ['CSV', 'JSON'] }),
        (o) => `Using it. (${o.output})`,
      ),
    });
    await h.type('@engineer export the data');
    await shows(1, 'question(pending) engineer: Which format?');
    await h.type('7');
    expect(h.screen()).toContain('(only you) [1] There is no option 7: answer 1–2, or in your own words.');
    await h.type('JSON, with ISO dates');
    await h.settled(1);
    expect((await outcomeOf('engineer', 'ask_question')).output).toBe('Answer: JSON, with ISO dates');
    await shows(1, 'question(answered) engineer: Which format? = JSON, with ISO dates (you)');
    expect(await runOf('engineer')).toHaveLength(1);
  });

  it('N13: answering a note, the asking agent is told; another agent answers with answer_question; never in its own conversation', async () => {
    await open({
      engineer: calling(
        calls,
        'send_to_agent',
        () => ({ agent: 'architect', text: 'Design the export format.' }),
        () => 'Sent it to architect.',
      ),
      architect: calling(
        calls,
        'ask_question',
        () => ({ text: 'CSV or JSON?', options: ['CSV', 'JSON'] }),
        (o) => `Export format decided. (${o.output})`,
      ),
      // qa answers from the conversation where it was told (thread 1).
      qa: calling(
        calls,
        'answer_question',
        (request) => ({
          id: /question ([0-9a-f-]{36})/.exec(`${request.system}\n${request.prompt}`)?.[1] ?? 'none',
          answer: '2',
        }),
        (o) => `qa: ${o.output}`,
      ),
      // ceo tries from the question's own conversation (thread 2): refused.
      ceo: calling(
        calls,
        'answer_question',
        () => ({ id: questionId, answer: 'CSV' }),
        (o) => o.output,
      ),
    });
    let questionId = '';
    await leaveSpace('architect');
    await h.type('@engineer define the export');
    await shows(2, 'question(pending) architect: CSV or JSON?');
    const [architectRun] = await runOf('architect');
    questionId = await h.read(
      async (tx) => (await tx.questions.listPending(architectRun?.conversationId ?? ''))[0]?.id ?? '',
    );
    // N13: the asking agent's conversation is told, with the id an agent answers by.
    await shows(
      1,
      `system: architect asks about your note (question ${questionId}): CSV or JSON? Options: 1. CSV 2. JSON — people there can answer it, or an agent with answer_question.`,
    );

    await h.type('/thread 2');
    await h.type('@ceo answer the question');
    expect(await outcomeOf('ceo', 'answer_question')).toEqual({
      ok: false,
      output:
        'answer_question refused: that question was asked in your own conversation, where the people answer it; an agent cannot answer a question of its own conversation.',
    });
    expect(lines(2)).toContain('question(pending) architect: CSV or JSON?');

    await h.type('/thread 1');
    await h.type('@qa answer the pending question');
    await h.settled(4);
    expect(await outcomeOf('qa', 'answer_question')).toEqual({ ok: true, output: 'Answered: JSON' });
    expect((await outcomeOf('architect', 'ask_question')).output).toBe('Answer: JSON');
    await shows(2, 'question(answered) architect: CSV or JSON? = JSON (qa)');
    await shows(2, 'architect: Export format decided. (Answer: JSON)');
    const question = await h.read((tx) => tx.questions.findById(questionId));
    expect(question).toMatchObject({
      status: 'answered',
      answer: 'JSON',
      answeredByAgentId: await h.agentId('qa'),
      answeredByMemberId: null,
    });
  });

  it('T1: a waiting run gives its slot back: with one slot, the awaited turns still run', async () => {
    const delegate = (to: string): Script =>
      calling(
        calls,
        'delegate_task',
        () => ({ agent: to, task: `Your part, ${to}.` }),
        (o) => `${to}: ${o.output}`,
      );
    await open(
      {
        engineer: calling(
          calls,
          'ask_agent',
          () => ({ agent: 'architect', text: 'Is the design ready?' }),
          (o) => o.output,
        ),
        architect: delegate('qa'),
        qa: say('Checked.'),
      },
      {},
      1,
    );
    await h.type('@engineer check the design');
    await h.settled(3);
    expect((await outcomeOf('engineer', 'ask_agent')).output).toBe(
      'architect replied:\nqa: qa finished the task:\nChecked.',
    );
    expect((await h.runs()).map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('unknown agents and self-handoffs are refused with a sentence', async () => {
    await open({
      engineer: async function* (request) {
        for (const input of [
          { agent: 'nobody', text: 'hi' },
          { agent: 'engineer', text: 'hi' },
        ]) {
          const outcome = await request.tools.call({ callId: 'x', name: 'ask_agent', input }, request.signal);
          calls.push({ agent: 'engineer', tool: 'ask_agent', outcome });
        }
        yield { type: 'final', text: 'done' };
      },
    });
    await h.type('@engineer try');
    await h.settled(1);
    expect(calls.map((c) => c.outcome.output)).toEqual([
      'ask_agent refused: there is no agent named "nobody" in this workspace. Agents: ceo, qa, architect, engineer, librarian.',
      'ask_agent refused: you cannot hand work to yourself (engineer).',
    ]);
  });
});

describe.each(ENGINE_SETUPS)('N11: ask_agent on the built-in Anthropic loop on $name', (setup) => {
  const KEY = 'sk-ant-api03-AGENT-TOOLS-7c1e';
  let anthropic: AnthropicStandIn;
  let h: EngineHarness;
  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: KEY });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  it('the model calls ask_agent; the other agent’s reply comes back as the tool_result, and the asker answers in its thread', async () => {
    const runner = new AnthropicRunner({
      apiKey: KEY,
      baseUrl: anthropic.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
    h = await openEngineHarness(setup, runner, {}, { tools: createToolKit([], {}) });
    anthropic.script(
      // engineer asks qa
      {
        kind: 'stream',
        blocks: [{ type: 'tool_use', name: 'ask_agent', input: { agent: 'qa', text: 'Is main green?' } }],
      },
      // qa's own turn
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Main is green: 112 passed.'] }] },
      // engineer, with qa's reply as the tool result
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['QA confirms main is green.'] }] },
    );
    await h.type('@engineer is main green?');
    await h.settled(2);
    const messagesOf = (i: number) =>
      (anthropic.requests[i]?.body as { messages?: unknown[] } | undefined)?.messages ?? [];
    expect(JSON.stringify(messagesOf(2).at(-1))).toContain('qa replied:\\nMain is green: 112 passed.');
    const qaPrompt = JSON.stringify(messagesOf(1));
    expect(qaPrompt).toContain('Remote prompt from an agent');
    expect(qaPrompt).toContain('Is main green?');
    await waitFor(async () =>
      h.thread(1).map(describeEntry).includes('engineer: QA confirms main is green.'),
    );
    const shown = h.thread(1).map(describeEntry);
    expect(shown.indexOf('qa: Main is green: 112 passed.')).toBeLessThan(
      shown.indexOf('engineer: QA confirms main is green.'),
    );
  });
});
