import type { TurnCheckpointRound } from '../../core/ports/run-checkpoints';
import type { RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome, TurnTools } from '../../core/ports/turn-tools';
import { steeringPrompt } from '../../core/prompt/steering-prompt';
import { summarizeCall, summarizeOutcome } from '../../core/tools/call-summary';

/** A16: how many read-only calls of one round run at once. */
export const READ_CALLS_AT_ONCE = 4;

type RoundCall = ToolCall & { inputError?: string };

/**
 * One round of the tool loop (A9): the model's calls run through `tools.call` (which checks
 * guardrails and may wait for an approval), each announced with a `tool_start` and closed with a
 * `tool_end` (P9 status-card rows), in the model's order. A16: consecutive calls of `read` tools
 * run together (at most READ_CALLS_AT_ONCE), writes and `bash` one at a time. Returns the
 * outcomes in call order; a call whose input did not parse is answered with a sentence, not run.
 */
export async function* runToolRound(
  calls: readonly RoundCall[],
  tools: TurnTools,
  signal: AbortSignal,
  resume: {
    /** T2: the outcomes known from a checkpoint; those calls are not run again. */
    done?: readonly ToolOutcome[];
    /** T2: called (and awaited) with the outcomes so far before calls are handed to the tools. */
    beforeCall?: (outcomes: ToolOutcome[]) => Promise<void>;
  } = {},
): AsyncGenerator<RunnerEvent, ToolOutcome[]> {
  const outcomes: ToolOutcome[] = [...(resume.done ?? [])];
  const run = (call: RoundCall): Promise<ToolOutcome> =>
    call.inputError !== undefined
      ? Promise.resolve({ ok: false, output: call.inputError })
      : tools.call({ callId: call.callId, name: call.name, input: call.input }, signal);
  while (outcomes.length < calls.length && !signal.aborted) {
    const batch = nextBatch(calls, outcomes.length, tools);
    await resume.beforeCall?.([...outcomes]);
    const start = (call: RoundCall): RunnerEvent => ({
      type: 'tool_start',
      callId: call.callId,
      tool: call.name,
      summary: summarizeCall(call),
    });
    // The first call is announced before anything is handed to the tools: the engine may end
    // the turn at an event (O3: a budget used up by the call before), and then nothing runs.
    yield start(batch[0] as RoundCall);
    const running = batch.map((call) => run(call));
    for (const [index, call] of batch.entries()) {
      if (index > 0) yield start(call);
      const outcome = await (running[index] as Promise<ToolOutcome>);
      outcomes.push(outcome);
      yield {
        type: 'tool_end',
        callId: call.callId,
        ok: outcome.ok,
        summary: summarizeOutcome(call, outcome),
      };
    }
  }
  return outcomes;
}

/**
 * A16: the calls from `start` handed to the tools together: a run of `read` tools (bounded), or
 * one call of any other kind. Their events are told in the model's order (a status card shows
 * one call at a time).
 */
function nextBatch(calls: readonly RoundCall[], start: number, tools: TurnTools): RoundCall[] {
  const isRead = (call: RoundCall | undefined) =>
    call !== undefined && tools.specs.find((spec) => spec.name === call.name)?.access === 'read';
  const batch: RoundCall[] = [];
  for (let i = start; i < calls.length && batch.length < READ_CALLS_AT_ONCE; i++) {
    const call = calls[i];
    if (!isRead(call)) break;
    batch.push(call as RoundCall);
  }
  return batch.length > 0 ? batch : calls.slice(start, start + 1);
}

/**
 * T2: `runToolRound`'s resume options for `round`: the outcomes already known are kept, and
 * before each call the round is checkpointed with that call in flight.
 */
export function checkpointedRound(
  round: TurnCheckpointRound,
  rounds: number,
  save: (rounds: number, round: TurnCheckpointRound | null) => Promise<void>,
) {
  return {
    done: round.outcomes,
    beforeCall: (outcomes: ToolOutcome[]) => save(rounds, { ...round, outcomes, inFlight: true }),
  };
}

/**
 * A9, T2: the model asked for tools: the round's calls run (`runToolRound`), checkpointed before
 * each call, and the round's exchange (`exchangeOf` its outcomes) ends the round, `round + 1`
 * done. A turn past `maxRounds` rounds fails instead (a runaway guard). Resolves true when the
 * loop goes on, false when the turn ended (failed, or aborted meanwhile).
 */
export async function* answerCalls<Exchange extends unknown[]>(
  progress: LoopProgress<Exchange>,
  round: number,
  maxRounds: number,
  asked: Pick<TurnCheckpointRound, 'assistant' | 'calls'>,
  tools: TurnTools,
  signal: AbortSignal,
  exchangeOf: (outcomes: ToolOutcome[]) => Exchange,
): AsyncGenerator<RunnerEvent, boolean> {
  if (round >= maxRounds) {
    yield { type: 'error', message: `stopped after ${maxRounds} rounds of tool calls without an answer.` };
    return false;
  }
  // T2: before each call the round is checkpointed with that call in flight.
  const pending = { assistant: asked.assistant, calls: asked.calls, outcomes: [], inFlight: false };
  const outcomes = yield* runToolRound(
    asked.calls,
    tools,
    signal,
    checkpointedRound(pending, round, progress.save),
  );
  if (signal.aborted) return false;
  yield* progress.endRound(exchangeOf(outcomes), round + 1);
  return true;
}

/** Parses a tool call's JSON arguments; an unparsable input becomes a sentence for the model. */
export function parseToolInput(json: string): { input: unknown; inputError?: string } {
  if (json.trim() === '') return { input: {} };
  try {
    return { input: JSON.parse(json) as unknown };
  } catch {
    return {
      input: {},
      inputError: 'The tool input was not valid JSON; call the tool again with a JSON object.',
    };
  }
}

/**
 * T2: a tool loop's progress, as its checkpoints hold it: the exchanges so far (in the runner's
 * own API messages), whether the model was already nudged, and where the loop goes on.
 */
export interface LoopProgress<Exchange extends unknown[]> {
  exchanges: Exchange[];
  nudged: boolean;
  /** A15: the model's summary of the rounds compacted away, if the turn was compacted. */
  summary: string | undefined;
  /** The round the loop starts at (0, or after the checkpointed ones). */
  firstRound: number;
  /** Checkpoints the loop: `rounds` done, and the round in progress, if any. */
  save(rounds: number, round: TurnCheckpointRound | null, steered?: string[]): Promise<void>;
  /**
   * T2, P16: a round's end, a tool boundary: the steering messages that arrived join its
   * exchange (announced as `steered` events), which is kept and checkpointed, `rounds` done.
   */
  endRound(exchange: Exchange, rounds: number): AsyncGenerator<RunnerEvent, void>;
}

/**
 * T2, the start of every tool loop: a new turn is checkpointed at once; a resumed one goes on
 * from its checkpoint (refused when another runner wrote it), its round in progress finished
 * first — the calls already answered are not run again — and turned into an exchange by
 * `exchangeOf`. Returns null when the turn cannot go on (refused, or aborted meanwhile).
 */
export async function* startToolLoop<Exchange extends unknown[]>(
  request: Pick<RunnerRequest, 'checkpoint' | 'resumeFrom' | 'steering'>,
  format: string,
  tools: TurnTools,
  signal: AbortSignal,
  exchangeOf: (round: TurnCheckpointRound, outcomes: ToolOutcome[]) => Exchange,
  /** P16: the exchange with people's messages added as a user message after its tool results. */
  withSteering: (exchange: Exchange, prompts: string[]) => Exchange,
): AsyncGenerator<RunnerEvent, LoopProgress<Exchange> | null> {
  const resume = request.resumeFrom;
  if (resume !== undefined && resume.format !== format) {
    yield { type: 'error', message: `cannot resume a turn checkpointed by the ${resume.format} runner.` };
    return null;
  }
  const progress: LoopProgress<Exchange> = {
    exchanges: (resume?.exchanges ?? []) as Exchange[],
    nudged: resume?.nudged ?? false,
    summary: resume?.summary,
    firstRound: resume === undefined ? 0 : resume.rounds,
    save: async (rounds, round, steered) =>
      request.checkpoint?.({
        format,
        exchanges: progress.exchanges,
        round,
        rounds,
        nudged: progress.nudged,
        ...(progress.summary === undefined ? {} : { summary: progress.summary }),
        ...(steered === undefined || steered.length === 0 ? {} : { steered }),
      }),
    async *endRound(exchange, rounds) {
      // P16: read at the boundary, stored with its checkpoint: a resumed turn keeps them (T2).
      const steering = (await request.steering?.pending()) ?? [];
      progress.exchanges.push(
        steering.length === 0
          ? exchange
          : withSteering(
              exchange,
              steering.map((s) => steeringPrompt(s.from, s.text)),
            ),
      );
      await progress.save(
        rounds,
        null,
        steering.map((s) => s.id),
      );
      for (const s of steering) yield { type: 'steered', from: s.from, text: s.text };
    },
  };
  if (resume === undefined) await progress.save(0, null);
  else if (resume.round !== null) {
    const pending = resume.round;
    const outcomes = yield* runToolRound(
      pending.calls,
      tools,
      signal,
      checkpointedRound(pending, resume.rounds, progress.save),
    );
    if (signal.aborted) return null;
    progress.firstRound = resume.rounds + 1;
    yield* progress.endRound(exchangeOf(pending, outcomes), progress.firstRound);
  }
  return progress;
}
