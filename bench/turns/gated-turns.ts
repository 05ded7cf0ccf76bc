import { z } from 'zod';
import { createToolKit } from '../../src/core/engine/tool-kit/turn-tool-kit';
import type { Runner, RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import { defineTool } from '../../src/core/tools/tool-definition';

/** A tool the guardrails classify as `commit`: with commits set to `ask`, every call waits on a card. */
const releaseTool = defineTool({
  name: 'release',
  description: 'Release.',
  input: z.object({}),
  access: 'write',
  modes: ['chat'],
  classify: () => ['commit'],
  run: async () => ({ ok: true, output: 'released' }),
});

export const gatedTools = () => createToolKit([releaseTool]);

/** "release" calls the gated tool (and waits on its approval); anything else answers at once. */
export class GatedRunner implements Runner {
  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    if (request.prompt.includes('release')) {
      const outcome = await request.tools.call({ callId: 'c1', name: 'release', input: {} }, request.signal);
      yield { type: 'final', text: outcome.output };
      return;
    }
    yield { type: 'final', text: 'Done.' };
  }
}

/** A model that takes `ms` per answer (T3: turns are I/O-bound). */
export class SlowRunner implements Runner {
  constructor(private readonly ms: number) {}

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.ms);
      request.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    yield { type: 'final', text: 'Done.' };
  }
}

/** Polls `check` (the benchmark's own set-up step, not the engine) until true or `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
