/**
 * A diagnostic of `npm run bench -- instant` (and `turns`): where in its measured stretch each
 * bot's replies were slow. Reads a results file (`bench/results/instant-….json`) and prints,
 * per round and bot, each window's reply p50 and slowest reply, in the order the mentions were
 * due: a slow start (the rate stepping up from the warm-up's), a stall of a few windows, or a
 * backlog that grows and stays (routing that fell behind) read differently from a p99. Each
 * stretch's start (the wall clock) lines a window up with PostgreSQL's log or a `--trace-gc`.
 *
 *   npx tsx bench/realpath/reply-windows.ts bench/results/instant-….json [windowMs=500]
 */
import { readFileSync } from 'node:fs';
import { median, millisText as ms, percentile } from '../core/stats';

interface Bot {
  label: string;
  replyMsInOrder?: number[];
  startedAt?: string;
}

interface Results {
  options: { rate: number };
  results?: Bot[];
  rounds?: Bot[][];
}

const [file, windowArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npx tsx bench/realpath/reply-windows.ts <results.json> [windowMs]');
  process.exit(2);
}
const windowMs = Number(windowArg ?? 500);
const body = JSON.parse(readFileSync(file, 'utf8')) as Results;
const rounds = body.rounds ?? (body.results === undefined ? [] : [body.results]);
const perWindow = Math.max(1, Math.round((body.options.rate * windowMs) / 1000));

rounds.forEach((bots, round) => {
  for (const bot of bots) {
    const replies = bot.replyMsInOrder;
    if (replies === undefined || replies.length === 0) continue;
    const since = bot.startedAt === undefined ? '' : ` (from ${bot.startedAt})`;
    console.log(`round ${round + 1}, ${bot.label}: reply p50 ${ms(median(replies))}${since}`);
    for (let from = 0; from < replies.length; from += perWindow) {
      const window = replies.slice(from, from + perWindow).sort((a, b) => a - b);
      const at = from / body.options.rate;
      console.log(
        `  ${at.toFixed(1).padStart(5)} s  p50 ${ms(median(window)).padStart(9)}  p99 ${ms(percentile(window, 99)).padStart(9)}  slowest ${ms(window[window.length - 1] ?? 0).padStart(9)}`,
      );
    }
  }
});
