import { createTurnTools } from '../../src/app/turn-tools';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { ToolKitDeps } from '../../src/core/engine/tool-kit/tool-kit-deps';
import { turnContextFrom } from '../../src/core/engine/turn/turn-context';
import type { Runner, RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import type { Store } from '../../src/core/ports/store';
import type { TurnToolsFactory, TurnToolsScope } from '../../src/core/ports/turn-tools-factory';
import { composePrompt, type PromptInput } from '../../src/core/prompt';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { openEngineSetup, SETUPS } from '../core/engine-setup';

/** One instant turn's model request as the engine builds it, and what it was built from. */
export interface CapturedTurn {
  request: RunnerRequest;
  promptInput: PromptInput;
  /** The turn's tool kit, bound to the engine, and the scope the engine called it with. */
  toolKit: TurnToolsFactory;
  scope: TurnToolsScope;
}

/** Records the request it is run with and answers at once (`instant`'s model, without the call). */
class CapturingRunner implements Runner {
  readonly takesSteering = true;
  readonly checkpoints = true;
  request: RunnerRequest | undefined;

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    this.request = request;
    yield { type: 'final', text: 'pong 1' };
  }
}

/**
 * The real turn engine (`openEngineSetup`, PGlite, the bench workspace `instant` links to Slack:
 * `ensureLocalChat`'s `default`, space `general`, agent `engineer`) with the built-in tools
 * `summon serve` gives it (`createTurnTools`, no GitHub), one mention answered: the runner's
 * request (system prompt, prompt, tools), the turn's prompt input read back as the turn read it,
 * and its tool kit. The engine is closed before this returns, so nothing of it runs while the
 * bench measures.
 */
export async function captureInstantTurn(endpoints: Endpoints): Promise<CapturedTurn> {
  const cleanup = new Cleanup();
  try {
    const runner = new CapturingRunner();
    let toolKit: TurnToolsFactory | undefined;
    let scope: TurnToolsScope | undefined;
    const spec = SETUPS.find((s) => s.id === 'pglite-in-process');
    if (spec === undefined) throw new Error('no PGlite set-up');
    const setup = await openEngineSetup(
      spec,
      endpoints,
      { workerConcurrency: 1, timeoutMs: 60_000 },
      cleanup,
      {
        runner,
        tools: (deps: ToolKitDeps) => {
          const factory = createTurnTools(process.env)(deps);
          toolKit = factory;
          return (turn) => {
            scope = turn;
            return factory(turn);
          };
        },
      },
    );
    await setup.roundTrip();
    const request = runner.request;
    if (request === undefined || toolKit === undefined || scope === undefined)
      throw new Error('the turn did not reach its runner');
    const promptInput = await promptInputOf(setup.store, request);
    const composed = composePrompt(promptInput);
    if (composed.system !== request.system || composed.prompt !== request.prompt)
      throw new Error('the prompt read back is not the one the turn composed');
    return { request, promptInput, toolKit, scope };
  } finally {
    await cleanup.run();
  }
}

/** The turn's prompt input as its claim read it: its reads again, without what the turn wrote. */
async function promptInputOf(store: Store, request: RunnerRequest): Promise<PromptInput> {
  const { agent } = request;
  return store.inWorkspace(agent.workspaceId, async (tx) => {
    const [run] = await tx.runs.recentForAgents(agent.workspaceId, [agent.id], 1);
    if (run === undefined || run.id !== request.runId) throw new Error('the turn’s run is not the newest');
    const reads = await tx.turnReads.read(run, DEFAULT_TIMINGS.historyMessages);
    const asked = reads.trigger?.createdAt ?? run.createdAt;
    // The reply the turn posted is newer than its trigger: the turn did not see it.
    return turnContextFrom(run, { ...reads, recent: reads.recent.filter((m) => m.createdAt <= asked) })
      .promptInput;
  });
}
