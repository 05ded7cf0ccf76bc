import type { RunnerEvent } from '../../core/ports/runner';
import type { TurnTools } from '../../core/ports/turn-tools';
import type { LoopProgress } from './tool-round';

/**
 * A9: the model stopped without calling a tool. A completion contract still unmet (plan mode:
 * `submit_plan`) nudges once — the model's words and the nudge kept as an exchange (`nudgeExchange`)
 * and checkpointed with `rounds` done (T2) — and fails the turn the second time; otherwise the
 * turn ends with `text`. Resolves true when the loop goes on (nudged), false when the turn ended.
 */
export async function* finishOrNudge<Exchange extends unknown[]>(
  tools: TurnTools,
  progress: LoopProgress<Exchange>,
  rounds: number,
  text: string,
  nudgeExchange: (nudge: string) => Exchange,
): AsyncGenerator<RunnerEvent, boolean> {
  const nudge = tools.completion?.unmet();
  if (nudge === undefined || tools.completion === undefined) {
    yield { type: 'final', text };
    return false;
  }
  if (progress.nudged) {
    yield { type: 'error', message: tools.completion.failure };
    return false;
  }
  progress.nudged = true;
  progress.exchanges.push(nudgeExchange(nudge));
  await progress.save(rounds, null);
  return true;
}
