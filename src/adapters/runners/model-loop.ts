import type { TokenUsage } from '../../core/model/usage/token-usage';
import type { RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome } from '../../core/ports/turn-tools';
import { ContextWindow, SUMMARY_INSTRUCTION } from './compaction';
import { finishOrNudge } from './completion-nudge';
import { answerCalls, type LoopProgress, startToolLoop } from './tool-round';

/** What a request carries after the system prompt and the turn's prompt (A14: in this order). */
export interface LoopHistory<Exchange> {
  /** A15: the summary of the rounds compacted away, right after the prompt. */
  summary: string | undefined;
  exchanges: readonly Exchange[];
  /** A15: the summary request's instruction, after the rounds to summarize. */
  ask?: string;
}

/** One model call's answer, whatever the wire format. */
export interface ModelReply {
  /** The assistant message as the next request must repeat it. */
  assistant: unknown;
  text: string;
  calls: (ToolCall & { inputError?: string })[];
  /** The model stopped to have its calls run. */
  wantsTools: boolean;
  model: string;
  usage: TokenUsage | undefined;
}

/**
 * A9, item 4 of A14/A15's issue: what differs between the built-in runners — the model API's
 * wire format. Everything else (rounds, checkpoints, steering, compaction, tools) is `runModelLoop`.
 */
export interface WireFormat<Exchange extends unknown[]> {
  /** T2: the checkpoint format (another runner cannot resume it). */
  readonly format: string;
  /**
   * One streamed model call for `history`; `summarizing`: the tools may not be called (A15).
   * Undefined when it failed (the error yielded) or was stopped.
   */
  call(
    history: LoopHistory<Exchange>,
    summarizing: boolean,
  ): AsyncGenerator<RunnerEvent, ModelReply | undefined>;
  /** A4: the estimated input tokens of the request for `history`. */
  estimate(history: LoopHistory<Exchange>): number;
  toolExchange(assistant: unknown, calls: readonly ToolCall[], outcomes: readonly ToolOutcome[]): Exchange;
  nudgeExchange(reply: ModelReply, nudge: string): Exchange;
  /** P16: people's messages after a round's tool results. */
  withSteering(exchange: Exchange, prompts: string[]): Exchange;
}

/**
 * The built-in loop (A9): the model is asked; its calls run through the turn's tools and go back
 * as a round, until it answers. T2: checkpointed at its start and each tool boundary. A15: when
 * the next request would outgrow `contextTokens`, the older rounds are summarized once first.
 */
export async function* runModelLoop<Exchange extends unknown[]>(
  request: RunnerRequest,
  wire: WireFormat<Exchange>,
  limits: { maxRounds: number; contextTokens: number },
): AsyncGenerator<RunnerEvent, void> {
  const { tools, signal } = request;
  const progress = yield* startToolLoop<Exchange>(
    request,
    wire.format,
    tools,
    signal,
    (pending, outcomes) => wire.toolExchange(pending.assistant, pending.calls, outcomes),
    wire.withSteering,
  );
  if (progress === null) return;
  const window = new ContextWindow(limits.contextTokens);
  for (let round = progress.firstRound; ; round++) {
    if (signal.aborted) return;
    // A4: the request is estimated once a round (serializing it is the cost), again only when compacted.
    let estimate = wire.estimate(progress);
    if (window.overflows(estimate)) {
      if (!(yield* compact(progress, wire, window, round))) return;
      estimate = wire.estimate(progress);
    }
    window.sending(estimate);
    const reply = yield* wire.call(progress, false);
    if (reply === undefined || signal.aborted) return;
    window.reported(reply.usage);
    // O3: the call's usage, before anything else happens (a budget may end the turn here).
    if (reply.usage !== undefined) yield { type: 'usage', model: reply.model, usage: reply.usage };
    const goesOn =
      reply.wantsTools && reply.calls.length > 0
        ? yield* answerCalls(
            progress,
            round,
            limits.maxRounds,
            { assistant: reply.assistant, calls: reply.calls },
            tools,
            signal,
            (outcomes) => wire.toolExchange(reply.assistant, reply.calls, outcomes),
          )
        : yield* finishOrNudge(tools, progress, round + 1, reply.text, (nudge) =>
            wire.nudgeExchange(reply, nudge),
          );
    if (!goesOn) return;
  }
}

/**
 * A15: the older rounds are replaced by the model's summary of them (with the summary before
 * them, if the turn was compacted already), asked once in a request whose tools may not be
 * called; the latest rounds are kept. The summary is checkpointed with them (T2). Its words are
 * not part of the reply. False when the turn cannot go on (the call failed or was stopped).
 */
async function* compact<Exchange extends unknown[]>(
  progress: LoopProgress<Exchange>,
  wire: WireFormat<Exchange>,
  window: ContextWindow,
  rounds: number,
): AsyncGenerator<RunnerEvent, boolean> {
  const empty = wire.estimate({ summary: undefined, exchanges: [] });
  const costs = progress.exchanges.map(
    (exchange) => wire.estimate({ summary: undefined, exchanges: [exchange] }) - empty,
  );
  const older = progress.exchanges.length - window.keptRounds(costs);
  if (older <= 0) return true;
  const asked = {
    summary: progress.summary,
    exchanges: progress.exchanges.slice(0, older),
    ask: SUMMARY_INSTRUCTION,
  };
  const call = wire.call(asked, true);
  let reply: ModelReply | undefined;
  for (;;) {
    const next = await call.next();
    if (next.done === true) {
      reply = next.value;
      break;
    }
    if (next.value.type !== 'text') yield next.value;
  }
  if (reply === undefined) return false;
  if (reply.usage !== undefined) yield { type: 'usage', model: reply.model, usage: reply.usage };
  progress.summary = reply.text.trim() === '' ? '(the model gave no summary)' : reply.text.trim();
  progress.exchanges.splice(0, older);
  await progress.save(rounds, null);
  yield { type: 'compacted', rounds: older };
  return true;
}
