import { createLogger } from '../app/logger';
import { openRuntime, type Runtime } from '../app/runtime';
import { loadConfig } from '../config/config';

/** What a command may print to; tests hand in buffers instead of the process streams. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export interface CliContext {
  output: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** What a command reads from stdin (`summon hook pre-tool-use`); the process's stdin when absent. */
  input?: NodeJS.ReadableStream;
}

/** Runs a command's work with an open runtime and always closes it afterwards. */
export async function withRuntime<T>(
  context: CliContext,
  work: (runtime: Runtime) => Promise<T>,
  options = { migrate: true },
): Promise<T> {
  const config = loadConfig(context.env, context.cwd);
  // Logs go to stderr so that command output on stdout stays clean for pipes.
  const logger = createLogger({ level: context.env.LOG_LEVEL ?? 'warn' });
  const runtime = await openRuntime(config, logger, options);
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
