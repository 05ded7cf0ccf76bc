import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { z } from 'zod';
import type { ToolOutcome } from '../../core/ports/turn-tools';
import { classifyCommand } from '../../core/tools/classify-command';
import { notReadOnly } from '../../core/tools/read-only-command';
import { type AnyToolDefinition, defineTool, type ToolScope } from '../../core/tools/tool-definition';
import { capOutput } from './capped-output';

export interface BashToolOptions {
  /** The environment commands get: already stripped of every Summon secret (agent-environment.ts). */
  env: Record<string, string>;
  /** Default and largest timeout of one command. */
  timeoutMs?: number;
  maxTimeoutMs?: number;
  /** Output (stdout and stderr interleaved) beyond this is cut visibly. */
  maxOutputChars?: number;
  /** How long a killed command's group gets after SIGTERM before SIGKILL. */
  killGraceMs?: number;
}

const input = z.object({
  command: z.string().min(1).describe('The command line, run with bash -c in your working directory.'),
  timeout_seconds: z.number().int().min(1).max(3600).optional().describe('Stop the command after this long.'),
});

/**
 * `bash` (A9): a command line in the working directory, with a timeout, the output capped,
 * and an environment without Summon's secrets. On timeout or abort the whole process group
 * is killed. In chat mode any command runs (after its guardrail check); in plan and review
 * modes a read-only variant of the same name refuses commands that could change anything.
 */
export function bashTools(options: BashToolOptions): AnyToolDefinition[] {
  // G3: the run's own additions (its git configuration for the gateway) over the base environment.
  const run = (command: string, timeoutSeconds: number | undefined, scope: ToolScope, signal: AbortSignal) =>
    runCommand(
      command,
      scope.workingDir,
      signal,
      scope.env === undefined ? options : { ...options, env: { ...options.env, ...scope.env } },
      timeoutSeconds,
    );
  return [
    defineTool({
      name: 'bash',
      description: `Run a shell command in your working directory (bash -c). Output is capped at ${options.maxOutputChars ?? DEFAULT_MAX_OUTPUT} characters; the default timeout is ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s.`,
      input,
      access: 'write',
      modes: ['chat'],
      classify: (call) => classifyCommand(call.command),
      run: (call, scope, signal) => run(call.command, call.timeout_seconds, scope, signal),
    }),
    defineTool({
      name: 'bash',
      description:
        'Run a READ-ONLY shell command in your working directory (this space is in a read-only mode): ls, cat, grep, find, git status/log/diff/show and similar. Commands that write files, redirect output or change git state are refused.',
      input,
      access: 'read',
      modes: ['plan', 'review'],
      classify: (call) => classifyCommand(call.command),
      run: async (call, scope, signal) => {
        const why = notReadOnly(call.command);
        if (why !== undefined) {
          return { ok: false, output: `Refused in ${scope.space.mode} mode (read-only): ${why}.` };
        }
        return run(call.command, call.timeout_seconds, scope, signal);
      },
    }),
  ];
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 30_000;

function runCommand(
  command: string,
  cwd: string,
  signal: AbortSignal,
  options: BashToolOptions,
  timeoutSeconds: number | undefined,
): Promise<ToolOutcome> {
  const max = options.maxTimeoutMs ?? 600_000;
  const timeoutMs = Math.min(
    timeoutSeconds !== undefined ? timeoutSeconds * 1000 : (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    max,
  );
  mkdirSync(cwd, { recursive: true });
  return new Promise((resolve) => {
    // detached: the command leads its own process group, so a kill reaches its children too.
    const child = spawn('bash', ['-c', command], {
      cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const limit = (options.maxOutputChars ?? DEFAULT_MAX_OUTPUT) * 4;
    const take = (chunk: Buffer) => {
      // Keep a bounded buffer (head and a rolling tail) so a flood cannot exhaust memory.
      output += chunk.toString('utf8');
      if (output.length > limit)
        output = output.slice(0, limit / 2) + output.slice(output.length - limit / 2);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let stopped: string | undefined;
    const killGroup = (why: string) => {
      if (stopped !== undefined || child.pid === undefined) return;
      stopped = why;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, options.killGraceMs ?? 2000).unref();
    };
    const timer = setTimeout(() => killGroup(`timed out after ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    const onAbort = () => killGroup('stopped because the turn was stopped');
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ ok: false, output: `Could not start bash: ${error.message}` });
    });
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      const shown = capOutput(output, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT);
      const status =
        stopped !== undefined
          ? `Command ${stopped} (process group killed).`
          : killedBy !== null
            ? `Command killed by ${killedBy}.`
            : `Exit code ${code}.`;
      resolve({
        ok: stopped === undefined && code === 0,
        output: shown === '' ? status : `${status}\n${shown}`,
      });
    });
  });
}
