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
 * A4: one model call's request, built once: sized from what will be sent, then sent as built
 * (serializing a long turn's request is its cost, paid once a call).
 */
export interface PreparedCall {
  /** A4: the estimated input tokens of the request. */
  readonly tokens: number;
  /** The streamed call. Undefined when it failed (the error yielded) or was stopped. */
  send(): AsyncGenerator<RunnerEvent, ModelReply | undefined>;
}

/**
 * A9, item 4 of A14/A15's issue: what differs between the built-in runners — the model API's
 * wire format. Everything else (rounds, checkpoints, steering, compaction, tools) is `runModelLoop`.
 */
export interface WireFormat<Exchange extends unknown[]> {
  /** T2: the checkpoint format (another runner cannot resume it). */
  readonly format: string;
  /**
   * The request for `history`, ready to be sized and sent; `summarizing`: the tools may not be
   * called (A15). The loop sends it before `history` changes.
   */
  prepare(history: LoopHistory<Exchange>, summarizing: boolean): PreparedCall;
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
    // A4: the request is built and sized once a round (serializing it is the cost), and sent as
    // built; built again only when compacted.
    let prepared = wire.prepare(progress, false);
    if (window.overflows(prepared.tokens)) {
      if (!(yield* compact(progress, wire, window, round))) return;
      prepared = wire.prepare(progress, false);
    }
    window.sending(prepared.tokens);
    const reply = yield* prepared.send();
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
  const tokens = (exchanges: readonly Exchange[]) =>
    wire.prepare({ summary: undefined, exchanges }, false).tokens;
  const empty = tokens([]);
  const costs = progress.exchanges.map((exchange) => tokens([exchange]) - empty);
  const older = progress.exchanges.length - window.keptRounds(costs);
  if (older <= 0) return true;
  const asked = {
    summary: progress.summary,
    exchanges: progress.exchanges.slice(0, older),
    ask: SUMMARY_INSTRUCTION,
  };
  const call = wire.prepare(asked, true).send();
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
