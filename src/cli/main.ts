#!/usr/bin/env node
import { AppError, ValidationError } from '../core/errors';
import { type CliContext, processOutput } from './cli-context';
import { CliExit } from './cli-exit';
import { buildProgram } from './program';

/** Runs the CLI and returns the exit code: 0 ok, 1 refused input or failure. */
export async function runCli(argv: string[], context: CliContext): Promise<number> {
  const program = buildProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, context);
  }
}

function reportError(error: unknown, context: CliContext): number {
  if (isCommanderExit(error)) return error.exitCode;
  if (error instanceof CliExit) return error.exitCode;
  if (error instanceof ValidationError) context.output.err(error.describe());
  else if (error instanceof AppError) context.output.err(error.message);
  else {
    context.output.err(`summon failed: ${error instanceof Error ? error.message : String(error)}`);
    if (context.env.LOG_LEVEL === 'debug' && error instanceof Error && error.stack)
      context.output.err(error.stack);
  }
  return 1;
}

function isCommanderExit(error: unknown): error is { exitCode: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    String(error.code).startsWith('commander.')
  );
}

if (require.main === module) {
  runCli(process.argv.slice(2), { output: processOutput, env: process.env, cwd: process.cwd() }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
