import { z } from 'zod';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import type { ThreadEntry } from '../../../src/bots/terminal';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { defineTool } from '../../../src/core/tools/tool-definition';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

const API_KEY = 'sk-ant-compaction-test';
const LOG = 'z'.repeat(4000); // about 1000 tokens a call

/** A read-only tool whose every call prints a long log. */
const logTool = defineTool({
  name: 'read_log',
  description: 'Read the build log.',
  input: z.object({}),
  access: 'read',
  modes: ['chat'],
  classify: () => [],
  run: async () => ({ ok: true, output: LOG }),
});

const statusRows = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((e) =>
    e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message.content.card.rows] : [],
  );

describe.each(ENGINE_SETUPS)('A15: a compacted turn through the engine on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let standIn: AnthropicStandIn;
  afterEach(async () => {
    await h?.close();
    await standIn?.close();
  });

  it("A15, P9: the status card shows that the turn was compacted; the reply is the model's answer, not its summary", async () => {
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY, promptCache: true });
    let reads = 0;
    standIn.reply = (body) => {
      if (body.tool_choice !== undefined)
        return { kind: 'stream', blocks: [{ type: 'text', chunks: ['Read the log five times.'] }] };
      if (reads === 6) return { kind: 'stream', blocks: [{ type: 'text', chunks: ['The build is fixed.'] }] };
      reads += 1;
      return { kind: 'stream', blocks: [{ type: 'tool_use', name: 'read_log', input: {} }] };
    };
    const runner = new AnthropicRunner({
      apiKey: API_KEY,
      baseUrl: standIn.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
    h = await openEngineHarness(setup, runner, {}, { tools: createToolKit([logTool]) });
    const engineer = await h.agentId('engineer');
    await h.read((tx) => tx.agents.update(engineer, { contextSize: 7000 }));
    await h.type('@engineer fix the build');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(
      standIn.requests.filter((r) => (r.body as { tool_choice?: unknown }).tool_choice !== undefined),
    ).toHaveLength(1);
    await waitFor(async () =>
      statusRows(h.thread(1))[0]?.some((row) => row.startsWith('compacted')) ? true : null,
    );
    expect(statusRows(h.thread(1))[0]).toContainEqual(
      expect.stringMatching(/^compacted: \d+ earlier rounds? summarized$/),
    );
    const thread = h.thread(1).map(describeEntry);
    expect(thread).toContain('engineer: The build is fixed.');
    expect(thread.join('\n')).not.toContain('Read the log five times.');
  });
});
