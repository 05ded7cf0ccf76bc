import { mkdirSync } from 'node:fs';
import { z } from 'zod';
import type { ToolOutcome } from '../../core/ports/turn-tools';
import { classifyCommand } from '../../core/tools/classify-command';
import { notReadOnly } from '../../core/tools/read-only-command';
import { type AnyToolDefinition, defineTool, type ToolScope } from '../../core/tools/tool-definition';
import { networkFailureNote, sandboxEgress } from '../egress-proxy/sandbox-egress';
import { createProcessLauncher } from '../sandbox/create-process-launcher';
import type { LaunchedProcess, ProcessLauncher } from '../sandbox/process-launcher';
import { runSandboxPolicy } from '../sandbox/run-sandbox-policy';
import type { SandboxLimits } from '../sandbox/sandbox-policy';
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
  /** X1–X4: starts each call confined (default: a bubblewrap launcher, fail closed). */
  launcher?: ProcessLauncher;
  /** X3: the limits of each call besides its timeout (default: the sandbox's). */
  limits?: Omit<SandboxLimits, 'wallTimeMs'>;
}

const input = z.object({
  command: z.string().min(1).describe('The command line, run with bash -c in your working directory.'),
  timeout_seconds: z.number().int().min(1).max(3600).optional().describe('Stop the command after this long.'),
});

/**
 * `bash` (A9): a command line in the working directory, with a timeout, the output capped,
 * and an environment without Summon's secrets, confined by the run's sandbox (X1–X3: its
 * folders, the git gateway, limits). On timeout or abort every process of the call is killed. In chat mode any command runs (after its guardrail check); in plan and review
 * modes a read-only variant of the same name refuses commands that could change anything.
 */
export function bashTools(options: BashToolOptions): AnyToolDefinition[] {
  // G3: the run's own additions (its git configuration for the gateway) over the base environment.
  const withLauncher = { ...options, launcher: options.launcher ?? createProcessLauncher() };
  const run = (command: string, timeoutSeconds: number | undefined, scope: ToolScope, signal: AbortSignal) =>
    runCommand(command, scope, signal, withLauncher, timeoutSeconds);
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

async function runCommand(
  command: string,
  scope: ToolScope,
  signal: AbortSignal,
  options: BashToolOptions & { launcher: ProcessLauncher },
  timeoutSeconds: number | undefined,
): Promise<ToolOutcome> {
  const max = options.maxTimeoutMs ?? 600_000;
  const timeoutMs = Math.min(
    timeoutSeconds !== undefined ? timeoutSeconds * 1000 : (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    max,
  );
  mkdirSync(scope.workingDir, { recursive: true });
  // X2: the run's egress proxy (started by the first call that needs it), when the run can reach a host.
  const egress = await sandboxEgress(scope.egress);
  // X1–X3: the call runs in the run's sandbox: its folders, the gateway, its limits.
  const policy = runSandboxPolicy({
    runId: scope.runId,
    workingDir: scope.workingDir,
    ...(scope.linkedRoots === undefined ? {} : { linkedRoots: scope.linkedRoots }),
    // G3: the run's own additions (its git configuration for the gateway) over the base environment.
    env: { ...options.env, ...scope.env, ...egress.env },
    forwards: egress.forwards,
    limits: { ...options.limits, wallTimeMs: timeoutMs },
  });
  let call: LaunchedProcess;
  try {
    call = await options.launcher.launch(policy, ['bash', '-c', command], signal);
  } catch (error) {
    if (signal.aborted) return { ok: false, output: 'Command not started: the turn was stopped.' };
    return {
      ok: false,
      output: `Could not start bash: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const { child } = call;
  child.stdin.end();
  let output = '';
  const limit = (options.maxOutputChars ?? DEFAULT_MAX_OUTPUT) * 4;
  const take = (chunk: Buffer) => {
    // Keep a bounded buffer (head and a rolling tail) so a flood cannot exhaust memory.
    output += chunk.toString('utf8');
    if (output.length > limit) output = output.slice(0, limit / 2) + output.slice(output.length - limit / 2);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  let startError: string | undefined;
  child.on('error', (error) => {
    startError = error.message;
  });
  const onAbort = () => void call.end(options.killGraceMs ?? 2000);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const exit = await call.done;
  signal.removeEventListener('abort', onAbort);
  if (startError !== undefined) return { ok: false, output: `Could not start bash: ${startError}` };
  const shown = capOutput(output, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT);
  const stopped =
    exit.stopped === 'timeout'
      ? `timed out after ${Math.round(timeoutMs / 1000)} s`
      : exit.stopped === 'ended'
        ? 'stopped because the turn was stopped'
        : undefined;
  const status =
    stopped !== undefined
      ? `Command ${stopped} (process group killed).`
      : exit.signal !== null
        ? `Command killed by ${exit.signal}.`
        : `Exit code ${exit.code}.`;
  // X2: why a connection failed, in the proxy's words (an HTTPS client shows only "403").
  const refusals =
    (scope.egress?.takeRefusals() ?? []).map((sentence) => `\n[network] ${sentence}`).join('') +
    networkFailureNote(egress, output);
  return {
    ok: stopped === undefined && exit.code === 0,
    output: `${shown === '' ? status : `${status}\n${shown}`}${refusals}`,
  };
}
