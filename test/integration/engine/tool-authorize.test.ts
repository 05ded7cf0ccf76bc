import { createTurnTools } from '../../../src/app/turn-tools';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';

/**
 * A runner whose tools run outside Summon (as a CLI agent's do): before each command it asks
 * `tools.authorize`, as the pre-tool-use hook will, and replies with the decisions it got.
 */
class OutsideToolsRunner implements Runner {
  constructor(private readonly commands: string[]) {}
  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const said: string[] = [];
    for (const [index, command] of this.commands.entries()) {
      const decision = await request.tools.authorize(
        { callId: `cli-${index}`, name: 'Bash', input: { command } },
        request.signal,
      );
      said.push(`${command} → ${decision.allowed ? 'allowed' : `refused (${decision.reason})`}`);
    }
    yield { type: 'final', text: said.join('\n') };
  }
}

describe.each(ENGINE_SETUPS)(
  'A9 authorize: calls made outside Summon get the same decision on $name',
  (setup) => {
    let h: EngineHarness;
    afterEach(async () => {
      await h.close();
    });

    it('an ungated command is allowed, a push asks and waits for the chat, a denied class is refused', async () => {
      h = await openEngineHarness(
        setup,
        new OutsideToolsRunner(['npm test', 'git push origin main', 'curl https://example.com']),
        {},
        { tools: createTurnTools({}, {}) },
      );
      await h.read((tx) =>
        tx.guardrails.upsert(h.local.workspace.id, {
          scopeKind: 'space',
          scopeId: h.local.space.id,
          action: 'network',
          decision: 'deny',
        }),
      );
      await h.type('@engineer ship it');
      const card = await waitFor(async () => {
        const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
        return entry?.kind === 'posted' ? entry.cardNumber : null;
      });
      await h.type('/thread 1');
      await h.type(`/approve ${card}`);
      await h.settled(1);
      const reply =
        h
          .thread(1)
          .map(describeEntry)
          .find((line) => line.startsWith('engineer:')) ?? '';
      expect(reply).toContain('npm test → allowed');
      expect(reply).toContain('git push origin main → allowed');
      expect(reply).toMatch(/curl https:\/\/example.com → refused \(Refused: network is denied by .*space/);
      expect(h.thread(1).map(describeEntry)).toContain(
        'approval(approved) engineer wants to run: Bash: git push origin main',
      );
    });
  },
);
