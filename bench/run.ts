import { runCoreBench } from './core/core-bench';
import { readEndpoints } from './core/endpoints';
import { parseCoreOptions, USAGE } from './core/options';
import { preflight } from './core/preflight';

/**
 * `npm run bench -- [core] [flags]`: runs the core benchmark (the only one so far). Ctrl-C
 * stops starting new messages, lets those in flight finish and still removes every database
 * and queue the run made; a second Ctrl-C exits at once.
 */
async function main(argv: readonly string[]): Promise<void> {
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
