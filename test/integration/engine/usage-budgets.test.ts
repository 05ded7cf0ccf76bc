import { existsSync } from 'node:fs';
import path from 'node:path';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { Budget } from '../../../src/core/model/usage/budget';
import type { Runner } from '../../../src/core/ports/runner';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { readableMessage, recordMessages } from '../../support/logged-messages';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import {
  OpenAiStandIn,
  STAND_IN_CACHED_TOKENS,
  STAND_IN_PROMPT_TOKENS,
} from '../../support/stand-ins/openai-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-USAGE-TEST-5c1e';

interface UsageRow {
  usage_model: string | null;
  input_tokens: string;
  output_tokens: string;
  cache_read_tokens: string;
  cache_write_tokens: string;
  cost_usd: string | null;
  status: string;
  error: string | null;
}

describe.each(ENGINE_SETUPS)('O3 usage and budgets on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;
  let openai: OpenAiStandIn;

  const open = async (runner: Runner) => {
    h = await openEngineHarness(setup, runner, {}, { tools: createTurnTools(process.env, {}) });
  };
  const claude = () =>
    new AnthropicRunner({
      apiKey: ANTHROPIC_KEY,
      baseUrl: anthropic.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
  const usageRows = () =>
    h.db.database.store.transaction((tx) =>
      tx.query<UsageRow>(
        `SELECT usage_model, input_tokens::text, output_tokens::text, cache_read_tokens::text,
                cache_write_tokens::text, cost_usd::text, status, error
           FROM runs ORDER BY created_at, seq`,
      ),
    );
  const setBudgets = (budgets: Budget[]) =>
    h.store.transaction((tx) => tx.workspaces.setBudgets(h.local.workspace.id, budgets));
  const shows = (thread: number, text: string) =>
    waitFor(
      async () =>
        h
          .thread(thread)
          .map(describeEntry)
          .find((line) => line.includes(text)) ?? null,
    );

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    openai = await OpenAiStandIn.start({});
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
    await openai.close();
  });

  it('O3: a built-in turn on the Anthropic API stores the usage of both its model calls and their cost', async () => {
    await open(claude());
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['All ', 'listed.'] }] },
    );
    await h.type('@engineer list the files');
    await h.settled(1);
    expect(anthropic.requests).toHaveLength(2);
    // The stand-in reports 10 input tokens a call; output: 1 + one per streamed chunk (0 and 2).
    const [row] = await usageRows();
    expect(row).toMatchObject({
      usage_model: 'claude-sonnet-4-6',
      input_tokens: '20',
      output_tokens: '4',
      cache_read_tokens: '0',
      cache_write_tokens: '0',
      status: 'succeeded',
    });
    // claude-sonnet-4-6: $3 / $15 per million input / output tokens.
    expect(Number(row?.cost_usd)).toBeCloseTo((20 * 3 + 4 * 15) / 1_000_000, 9);
    const report = await h.read((tx) =>
      tx.usage.report(h.local.workspace.id, { by: 'agent', since: new Date(0) }),
    );
    expect(report).toEqual([
      {
        name: 'engineer',
        runs: 1,
        usage: { inputTokens: 20, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: expect.closeTo(0.00012, 9),
      },
    ]);
  });

  it("A14, O3: a turn on the Anthropic API stores cache writes and reads apart, from the API's usage, priced at their own rates", async () => {
    await anthropic.close();
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY, promptCache: true });
    await open(claude());
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }] },
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['All ', 'listed.'] }] },
    );
    await h.type('@engineer list the files twice');
    await h.settled(1);
    expect(anthropic.requests).toHaveLength(3);
    const [row] = await usageRows();
    const stored = {
      input: Number(row?.input_tokens),
      write: Number(row?.cache_write_tokens),
      read: Number(row?.cache_read_tokens),
      output: Number(row?.output_tokens),
    };
    // the first call writes its prefix, the later ones read it back and write only their new round
    expect(stored.write).toBeGreaterThan(0);
    expect(stored.read).toBeGreaterThan(stored.write);
    // claude-sonnet-4-6: input $3, cache write $3.75, cache read $0.30, output $15 per million
    expect(Number(row?.cost_usd)).toBeCloseTo(
      (stored.input * 3 + stored.write * 3.75 + stored.read * 0.3 + stored.output * 15) / 1_000_000,
      9,
    );
  });

  it('O3: a turn on an OpenAI-compatible server asks for usage and stores it (cached prompt tokens apart)', async () => {
    await open(new OpenAiRunner({ baseUrl: openai.baseUrl, apiKey: undefined, defaultModel: 'gpt-4o-mini' }));
    openai.script({ kind: 'stream', deltas: ['Hi', ' there.'] });
    await h.type('@engineer hello');
    await h.settled(1);
    expect(openai.requests[0]?.body).toMatchObject({ stream_options: { include_usage: true } });
    const [row] = await usageRows();
    const input = STAND_IN_PROMPT_TOKENS - STAND_IN_CACHED_TOKENS;
    expect(row).toMatchObject({
      usage_model: 'gpt-4o-mini',
      input_tokens: String(input),
      output_tokens: '2',
      cache_read_tokens: String(STAND_IN_CACHED_TOKENS),
      status: 'succeeded',
    });
    expect(Number(row?.cost_usd)).toBeCloseTo(
      (input * 0.15 + 2 * 0.6 + STAND_IN_CACHED_TOKENS * 0.075) / 1_000_000,
      9,
    );
  });

  it('O3: a model without a price counts tokens and no cost', async () => {
    await open(new OpenAiRunner({ baseUrl: openai.baseUrl, apiKey: undefined, defaultModel: 'llama3.2' }));
    await h.type('@engineer hello');
    await h.settled(1);
    const [row] = await usageRows();
    expect(row).toMatchObject({ usage_model: 'llama3.2', output_tokens: '3', cost_usd: null });
  });

  it('T3, O4: the finish of a turn a budget stopped is one message, its audit row with the run’s end and the COMMIT', async () => {
    await open(claude());
    await setBudgets([{ scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 11 }]);
    anthropic.script({
      kind: 'stream',
      blocks: [{ type: 'tool_use', name: 'write_file', input: { path: 'x.txt', content: 'x' } }],
    });
    const messages: string[] = [];
    recordMessages(h.db.database.dataSource, (query) => void messages.push(readableMessage(query)));
    await h.type('@engineer write x.txt');
    await h.settled(1);
    await shows(1, 'Budget reached');

    const finish = messages.filter((message) => message.includes('INSERT INTO audit_events'));
    expect(finish).toHaveLength(1);
    const statements = finish[0]?.split(';\n') ?? [];
    expect(statements[0]).toBe('START TRANSACTION');
    expect(statements.join(';\n')).toMatch(/UPDATE run_steering SET state = 'queued'/);
    expect(statements.at(-1)).toBe('COMMIT');
    const [entry] = await h.store.transaction((tx) =>
      tx.query<{ kind: string; subject: string }>('SELECT kind, subject FROM audit_events'),
    );
    expect(entry?.kind).toBe('budget_stopped');
  });

  it('O3: a budget used up by a model call stops the turn before the next one, and no later turn starts', async () => {
    await open(claude());
    await setBudgets([{ scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 11 }]);
    anthropic.script({
      kind: 'stream',
      blocks: [{ type: 'tool_use', name: 'write_file', input: { path: 'x.txt', content: 'x' } }],
    });
    await h.type('@engineer write x.txt');
    await h.settled(1);
    const stopped = await shows(1, 'Budget reached');
    expect(stopped).toBe(
      "system: Budget reached: the agent engineer's budget of 11 tokens a day is used up (11 tokens today); " +
        "engineer's turn stopped before its next model call. It resets at midnight UTC. To raise it, change that " +
        'entry under `budgets` in the workspace file and run `summon apply`.',
    );
    // The tool call of the first answer never ran, and the model was not asked again.
    expect(anthropic.requests).toHaveLength(1);
    expect(existsSync(path.join(h.agentDir('engineer'), 'x.txt'))).toBe(false);
    expect(h.thread(1).map(describeEntry)).toContain('status(failed) engineer');
    const [first] = await usageRows();
    expect(first).toMatchObject({ status: 'failed', input_tokens: '10', output_tokens: '1' });
    expect(first?.error).toContain('Budget reached');

    // A workspace budget in dollars is untouched; the agent's is used up: the next turn is refused at its start.
    await setBudgets([
      { scope: 'workspace', target: null, per: 'month', unit: 'usd', limit: 100 },
      { scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 11 },
    ]);
    await h.type('/new');
    await h.type('@engineer try again');
    await h.settled(2);
    expect(await shows(2, 'Budget reached')).toContain("engineer's turn did not start");
    expect(anthropic.requests).toHaveLength(1);
    expect(
      h
        .thread(2)
        .map(describeEntry)
        .some((line) => line.startsWith('status(')),
    ).toBe(false);

    // Raised: turns start again.
    await setBudgets([{ scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 1_000 }]);
    anthropic.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Back.'] }] });
    await h.type('/new');
    await h.type('@engineer once more');
    await h.settled(3);
    expect(await shows(3, 'engineer: Back.')).toBe('engineer: Back.');
  });
});
