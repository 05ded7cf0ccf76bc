/** `npm run bench -- console [flags]`. */
export interface ConsoleBenchOptions {
  /** Turns kept running at once. */
  turns: number;
  /** How long each phase is measured (s). */
  seconds: number;
  /** Rounds of the three phases, one after the other (their sums are reported). */
  rounds: number;
  /** How long the model stand-in takes per answer (each a tool call), ms. */
  modelMs: number;
  /** Mentions per second while the turns are started. */
  rate: number;
  /** Signed-in viewers on the live-runs page at once. */
  viewers: number;
  bullmq: boolean;
}

export const CONSOLE_USAGE = `npm run bench -- console [--turns 200] [--seconds 10] [--rounds 3] [--model-ms 3000] [--rate 50] [--viewers 1] [--queue in-process|bullmq]

The console's live-runs page with --turns running turns (started by signed Slack events over HTTP
into \`summon serve\`; the model stand-in answers every request with a tool call after --model-ms,
so each turn keeps running and its status card keeps changing), watched by --viewers signed-in
viewers in headless Chromium. --rounds rounds of three phases of --seconds each: no viewer, the
viewers on the page, and no viewer but /metrics scraped at the rate the viewers got updates in
that round (the baseline).`;

export function parseConsoleOptions(argv: readonly string[]): ConsoleBenchOptions {
  const options: ConsoleBenchOptions = {
    turns: 200,
    seconds: 10,
    rounds: 3,
    modelMs: 3000,
    rate: 50,
    viewers: 1,
    bullmq: false,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1] ?? '';
    if (flag === '--queue') {
      if (value !== 'in-process' && value !== 'bullmq')
        throw new Error(`--queue takes in-process or bullmq, got "${value}"`);
      options.bullmq = value === 'bullmq';
      continue;
    }
    const numbers: Record<string, keyof Omit<ConsoleBenchOptions, 'bullmq'>> = {
      '--turns': 'turns',
      '--seconds': 'seconds',
      '--rounds': 'rounds',
      '--model-ms': 'modelMs',
      '--rate': 'rate',
      '--viewers': 'viewers',
    };
    const key = flag === undefined ? undefined : numbers[flag];
    if (key === undefined) throw new Error(`unknown flag ${flag}; see npm run bench -- console --help`);
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} takes a positive number, got "${value}"`);
    options[key] = n;
  }
  return options;
}
