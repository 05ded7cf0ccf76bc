import { type Measurement, median, millisText as ms } from '../core/stats';

/** What the summary reads of one bot's stretch (`BotResult` in `realpath-bench.ts`). */
export interface RoundFigures {
  label: string;
  replies: Measurement;
  acks: Measurement;
  cpuMsPerReply: number;
  postgresCpuMsPerReply: number | null;
}

/** One round: the bare bot, the floor (unless `--no-floor`) and Summon's set-ups, in that order. */
export interface Round<F extends RoundFigures = RoundFigures> {
  bare: F;
  floor: F | null;
  setups: F[];
}

/** Issue 34's targets on the path people take: each row's line (`goals`) and the rounds' count. */
export const TARGETS = {
  instant: { replyP99Ms: 100, throughputRatio: 0.9 },
  turns: { p99Ratio: 1.2 },
} as const;

/** Whether a bot's stretch of `kind` met the targets, against the bare bot of the same round. */
function met(kind: 'instant' | 'turns', r: RoundFigures, bare: RoundFigures): boolean {
  if (kind === 'instant')
    return (
      r.replies.p99Ms <= TARGETS.instant.replyP99Ms &&
      r.replies.throughput / bare.replies.throughput >= TARGETS.instant.throughputRatio
    );
  return r.replies.p99Ms / bare.replies.p99Ms <= TARGETS.turns.p99Ratio;
}

/**
 * After several rounds: each bot's medians over them, every ratio taken against the bare bot of
 * its own round first (a slow stretch of the machine weighs on both), and in how many rounds a
 * set-up met the targets. Nothing for a single round: its rows say it all.
 */
export function roundsSummary(kind: 'instant' | 'turns', rounds: readonly Round[]): string[] {
  if (rounds.length < 2) return [];
  const lines = [`medians over ${rounds.length} rounds (each ratio against the bare bot of its own round):`];
  const first = rounds[0] as Round;
  const bare = rounds.map((round) => round.bare);
  lines.push(
    `  ${first.bare.label.padEnd(38)} reply p99 ${ms(median(bare.map((b) => b.replies.p99Ms)))}  ack p99 ${ms(median(bare.map((b) => b.acks.p99Ms)))}  cpu ${median(bare.map((b) => b.cpuMsPerReply)).toFixed(2)} ms/reply`,
  );
  const bots: { label: string; pick: (round: Round) => RoundFigures }[] = [
    ...(first.floor === null
      ? []
      : [{ label: first.floor.label, pick: (round: Round) => round.floor as RoundFigures }]),
    ...first.setups.map((setup, i) => ({
      label: setup.label,
      pick: (round: Round) => round.setups[i] as RoundFigures,
    })),
  ];
  for (const bot of bots) {
    const of = (f: (r: RoundFigures, b: RoundFigures) => number) =>
      median(rounds.map((round) => f(bot.pick(round), round.bare)));
    const postgres = rounds.every((round) => bot.pick(round).postgresCpuMsPerReply !== null)
      ? ` + PostgreSQL ${of((r) => r.postgresCpuMsPerReply as number).toFixed(2)}`
      : '';
    const meeting = rounds.filter((round) => met(kind, bot.pick(round), round.bare)).length;
    lines.push(
      `  ${bot.label.padEnd(38)} reply p99 ${ms(of((r) => r.replies.p99Ms))} (${of((r, b) => r.replies.p99Ms / b.replies.p99Ms).toFixed(2)}× the bare bot's)  throughput ${of((r, b) => r.replies.throughput / b.replies.throughput).toFixed(2)}×  ack p99 ${ms(of((r) => r.acks.p99Ms))}  cpu ${of((r) => r.cpuMsPerReply).toFixed(2)}${postgres} ms/reply; targets met in ${meeting} of ${rounds.length} rounds`,
    );
  }
  return lines;
}
