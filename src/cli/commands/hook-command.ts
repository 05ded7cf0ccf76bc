import type { Command } from 'commander';
import { askRunnerForDecision } from '../../adapters/runners/command/pre-tool-use-client';
import { hookDecisionOutput } from '../../adapters/runners/command/pre-tool-use-protocol';
import type { CliContext } from '../cli-context';
import { CliExit } from '../cli-exit';

/** Claude Code reads exit code 2 of a PreToolUse hook as "block this call", stderr as the reason. */
const BLOCK_EXIT_CODE = 2;
const MAX_INPUT_BYTES = 1_000_000;

/**
 * `summon hook pre-tool-use` (A9): Claude Code's PreToolUse hook for a CLI agent run by Summon.
 * Reads the hook's JSON from stdin, asks the run's runner for the guardrail decision over the
 * per-run loopback channel named in the environment, and prints Claude Code's decision. A denial
 * is printed as JSON and also exits 2 with the reason on stderr, so the call is blocked even if
 * the JSON were not read; an unreachable runner is a denial (G2a, fail closed).
 */
export function registerHookCommand(program: Command, context: CliContext): void {
  const hook = program.command('hook').description('hooks that CLI agents (Claude Code) call back into');
  hook
    .command('pre-tool-use')
    .description('Claude Code PreToolUse hook: asks the running Summon run whether a tool call may run')
    .action(async () => {
      let decision: Awaited<ReturnType<typeof askRunnerForDecision>>;
      try {
        const input = await readAll(context.input ?? process.stdin);
        decision = await askRunnerForDecision(context.env, input);
      } catch (error) {
        decision = {
          allowed: false,
          reason: `Denied by Summon (fail closed): ${error instanceof Error ? error.message : String(error)}.`,
        };
      }
      context.output.out(hookDecisionOutput(decision));
      if (!decision.allowed) {
        context.output.err(decision.reason);
        throw new CliExit(BLOCK_EXIT_CODE);
      }
    });
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new Error('the hook input is larger than 1 MB');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
