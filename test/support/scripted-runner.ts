import type { Runner, RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';

/** What a scripted turn does: the events it yields, given what it was asked. */
export type Script = (request: RunnerRequest) => AsyncIterable<RunnerEvent> | Iterable<RunnerEvent>;

/**
 * A runner for tests that speaks the real runner port: each agent follows a script, and every
 * request is recorded so tests can read the prompts the engine composed.
 */
export class ScriptedRunner implements Runner {
  readonly requests: RunnerRequest[] = [];

  constructor(
    private readonly scripts: Record<string, Script>,
    private readonly fallback?: Script,
  ) {}

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    this.requests.push(request);
    const script = this.scripts[request.agent.name] ?? this.fallback;
    if (script === undefined) {
      yield { type: 'error', message: `no script for ${request.agent.name}` };
      return;
    }
    yield* script(request);
  }
}

/** A script that answers at once with a fixed text. */
export const replies =
  (text: string): Script =>
  () => [{ type: 'final', text }];

/** A script that answers at once with each text in turn (the last one again after them). */
export const repliesInTurn = (...texts: string[]): Script => {
  let next = 0;
  return () => [{ type: 'final', text: texts[Math.min(next++, texts.length - 1)] ?? '' }];
};

/** A script that waits until released (or aborted), for tests of turns in progress. */
export function held(text: string): { script: Script; release(): void; started: Promise<void> } {
  let release = () => {};
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    started,
    release: () => release(),
    script: async function* (request) {
      markStarted();
      yield { type: 'thinking' };
      await Promise.race([
        released,
        new Promise<void>((resolve) =>
          request.signal.addEventListener('abort', () => resolve(), { once: true }),
        ),
      ]);
      if (request.signal.aborted) return;
      yield { type: 'final', text };
    },
  };
}
