import { runCoreBench } from './core/core-bench';
import { readEndpoints } from './core/endpoints';
import { parseCoreOptions, USAGE } from './core/options';
import { preflight } from './core/preflight';
import { runIngestBench } from './ingest/ingest-bench';
import { parseInstantOptions, runInstantBench } from './instant/instant-bench';
import { parseCalls, runSandboxBench } from './sandbox/sandbox-bench';
import { runStatementsBench } from './statements/statements-bench';
import { runTurnsBench } from './turns/turns-bench';
import { parseTurnsOptions } from './turns/turns-options';
import { parseWorkersOptions, runWorkersBench } from './workers/workers-bench';

/**
 * `npm run bench -- [core] [flags]`: runs the core benchmark; `npm run bench -- turns` the
 * T1/T3 one (pending approvals, a slow model); `ingest` T4's acks; `instant` event → reply at a
 * rate; `workers` one worker process vs two (T5); `statements` what one turn costs the
 * database; `npm run bench -- sandbox [calls]` the sandbox's
 * cost per `bash` call (X1–X3; needs no database). Ctrl-C
 * stops starting new messages, lets those in flight finish and still removes every database
 * and queue the run made; a second Ctrl-C exits at once.
 */
async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === 'sandbox') {
    await runSandboxBench(parseCalls(argv[1]), (line) => console.log(line));
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
  if (argv[0] === 'instant') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runInstantBench(parseInstantOptions(argv.slice(1)), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'statements') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runStatementsBench(Number(argv[1] ?? 50), endpoints, (line) => console.log(line));
    return;
  }
  if (argv[0] === 'turns') {
    const endpoints = readEndpoints();
    await preflight(endpoints);
    await runTurnsBench(parseTurnsOptions(argv.slice(1)), endpoints, (line) => console.log(line));
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
