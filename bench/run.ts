import { parseAccessOptions, runAccessBench } from './access/access-bench';
import { runConsoleBench } from './console/console-bench';
import { CONSOLE_USAGE, parseConsoleOptions } from './console/console-options';
import { runCoreBench } from './core/core-bench';
import { readEndpoints } from './core/endpoints';
import { parseCoreOptions, USAGE } from './core/options';
import { preflight } from './core/preflight';
import { runCostBench } from './cost/cost-bench';
import { runIngestBench } from './ingest/ingest-bench';
import { parseInstantOptions, runInstantBench } from './instant/instant-bench';
import { runMcpBench } from './mcp/mcp-bench';
import { parseAnatomyOptions, runAnatomyBench } from './realpath/anatomy-bench';
import { runModelCallBench } from './realpath/model-call-bench';
import { runRealPathBench } from './realpath/realpath-bench';
import { parseRealPathOptions, REAL_PATH_USAGE } from './realpath/realpath-options';
import { runRoutinesBench } from './routines/routines-bench';
import { parseCalls, runSandboxBench } from './sandbox/sandbox-bench';
import { runStatementsBench } from './statements/statements-bench';
import { runTurnsBench } from './turns/turns-bench';
import { parseTurnsOptions } from './turns/turns-options';
import { parseWorkersOptions, runWorkersBench } from './workers/workers-bench';

/**
 * `npm run bench -- [core] [flags]`: runs the core benchmark; `access` P24's routing cost for
 * people admitted by a Discord role beside explicit members; `instant` and `turns` mentions at a
 * rate through the real path (signed Slack events into `summon serve`, the model and Slack over
 * HTTP) beside a bare Bolt bot, `anatomy` what one such reply costs (Slack calls, model
 * requests, commits, CPU); `model-call [calls]` the CPU of one model call, Summon's runner beside the bare bot's
 * (a diagnostic; no service needed); `instant --in-process` and `turns --in-process` the engine alone
 * (diagnostics; `turns --in-process` also T1's pending approvals); `ingest` T4's acks; `workers`
 * one worker process vs two (T5); `cost` what a long tool turn costs with the prompt cache (A14); `statements` what one turn costs the database; `console` the web console's live-runs page with 200 running turns beside `/metrics` (O5); `routines [count]` routines due at one moment on two schedulers: each fires once, and scheduled time → turn start beside an in-process timer (W2); `npm run bench -- sandbox [calls]` the sandbox's
 * cost per `bash` call (X1–X3; needs no database); `mcp [calls]` the latency Summon adds to a
 * gated, allowed MCP call on a stdio server (E2–E4; PGlite, no service). Ctrl-C
 * stops starting new messages, lets those in flight finish and still removes every database
 * and queue the run made; a second Ctrl-C exits at once.
 */
async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === 'cost') {
    await runCostBench(Number(argv[1] ?? 30), (line) => console.log(line));
    return;
  }
  if (argv[0] === 'sandbox') {
    await runSandboxBench(parseCalls(argv[1]), (line) => console.log(line));
    return;
  }
  if (argv[0] === 'mcp') {
    await runMcpBench(Number(argv[1] ?? 500), (line) => console.log(line));
    return;
  }
  if (argv[0] === 'console') {
    if (argv.includes('--help')) return console.log(CONSOLE_USAGE);
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runConsoleBench(parseConsoleOptions(argv.slice(1)), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'ingest') {
    await runIngestBench(argv.slice(1));
    return;
  }
  if (argv[0] === 'workers') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runWorkersBench(parseWorkersOptions(argv.slice(1)), endpoints, (line) => console.log(line));
    return;
  }
  if ((argv[0] === 'instant' || argv[0] === 'turns') && argv.includes('--help')) {
    console.log(REAL_PATH_USAGE);
    return;
  }
  if (argv[0] === 'instant' && argv.includes('--in-process')) {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    const rest = argv.slice(1).filter((a) => a !== '--in-process');
    await runInstantBench(parseInstantOptions(rest), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'turns' && argv.includes('--in-process')) {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    const rest = argv.slice(1).filter((a) => a !== '--in-process');
    await runTurnsBench(parseTurnsOptions(rest), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'instant' || argv[0] === 'turns') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    const options = parseRealPathOptions(argv[0], argv.slice(1));
    await runRealPathBench(options, endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'anatomy') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runAnatomyBench(parseAnatomyOptions(argv.slice(1)), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'model-call') {
    await runModelCallBench(Number(argv[1] ?? 2000), readEndpoints(), (line) => console.log(line));
    return;
  }
  if (argv[0] === 'access') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runAccessBench(parseAccessOptions(argv.slice(1)), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'routines') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runRoutinesBench(Number(argv[1] ?? 1000), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'statements') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runStatementsBench(Number(argv[1] ?? 50), endpoints, (line) => console.log(line));
    return;
  }
  const options = parseCoreOptions(argv);
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const endpoints = readEndpoints();
  await preflight(endpoints);
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    console.error('interrupted: finishing the messages in flight and cleaning up (Ctrl-C again to quit now)');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    await runCoreBench(options, endpoints, interrupt.signal, (line) => console.log(line));
  } finally {
    process.off('SIGINT', onSigint);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
