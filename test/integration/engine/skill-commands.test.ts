import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { createTurnTools } from '../../../src/app/turn-tools';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
} from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

const KEY = 'sk-ant-skill-test-key-31';

describe.each(ENGINE_SETUPS)('A5 skills in a built-in turn on $name', (setup) => {
  let h: EngineHarness;
  let standIn: AnthropicStandIn;

  beforeEach(async () => {
    standIn = await AnthropicStandIn.start({ apiKey: KEY });
    const runner = new AnthropicRunner({
      apiKey: KEY,
      baseUrl: standIn.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
    h = await openEngineHarness(setup, runner, {}, { tools: createTurnTools({}, {}) });
    const ws = h.local.workspace.id;
    await h.read(async (tx) => {
      await tx.skills.insert(ws, {
        name: 'testing',
        description: 'How we test',
        body: 'Always run npm test first.',
      });
      const engineer = await tx.agents.findByName(ws, 'engineer');
      if (engineer !== null) await tx.agents.update(engineer.id, { skills: ['testing'] });
    });
  });
  afterEach(async () => {
    await h.close();
    await standIn.close();
  });

  const messagesOf = (index: number): unknown[] =>
    (standIn.requests[index]?.body as { messages?: unknown[] } | undefined)?.messages ?? [];
  const firstPrompt = () => JSON.stringify(messagesOf(0)[0] ?? '');

  it('/skill:<name> in a message loads the skill body as an instruction for that turn', async () => {
    standIn.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Running tests first.'] }] });
    await h.type('@engineer /skill:testing fix the bug');
    await h.settled(1);
    expect(firstPrompt()).toContain('Skill instructions for this turn');
    expect(firstPrompt()).toContain('Always run npm test first.');

    standIn.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['ok'] }] });
    await h.type('@engineer no skill this time');
    await h.settled(2);
    const second = JSON.stringify(messagesOf(1)[0]);
    expect(second).not.toContain('Skill instructions for this turn');
  });

  it('read_skill returns a linked skill body to the model', async () => {
    standIn.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'read_skill', input: { name: 'testing' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Read it.'] }] },
    );
    await h.type('@engineer read your testing skill');
    await h.settled(1);
    const results = JSON.stringify(messagesOf(1).at(-1));
    expect(results).toContain('Always run npm test first.');
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Read it.');
  });
});
