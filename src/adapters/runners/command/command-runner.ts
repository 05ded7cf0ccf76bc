import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentRecord } from '../../../core/model/records';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../core/ports/runner';
import { agentEnvironment, secretValuesOf } from '../../../core/tools/agent-environment';
import { cliAgentEgress } from '../../egress-proxy/cli-agent-egress';
import { McpEndpoint } from '../../mcp-endpoint/mcp-endpoint';
import { createProcessLauncher } from '../../sandbox/create-process-launcher';
import { removeAtExit } from '../../sandbox/exit-cleanup';
import type { LaunchedProcess, ProcessLauncher } from '../../sandbox/process-launcher';
import { runSandboxPolicy } from '../../sandbox/run-sandbox-policy';
import type { SandboxPolicy } from '../../sandbox/sandbox-policy';
import { type AgentProcessEnd, agentProcessEvents } from './agent-process-events';
import { installPreToolUseHook } from './claude-code-hook';
import { type ClaudeMcpRun, openClaudeMcp } from './claude-mcp-config';
import { isClaudeCode, shellArgv, shellQuote } from './command-line';
import { type HookChannel, openHookChannel } from './hook-channel';
import { writeHookScript } from './hook-script';
import { HOOK_TOKEN_ENV, HOOK_URL_ENV } from './pre-tool-use-protocol';
import { nodePaths, programPaths } from './program-paths';
import { scrubSecrets } from './scrub-secrets';
import { SilenceWatchdog } from './silence-watchdog';
import type { StderrTail } from './stderr-tail';

export interface CommandRunnerOptions {
  /** X1–X4: starts the agent confined (default: a bubblewrap launcher, fail closed). */
  launcher?: ProcessLauncher;
  /** X1: more host paths the agent's command needs, read-only (SUMMON_SANDBOX_READ_ONLY). */
  readOnlyPaths?: readonly string[];
  /** The environment the agent's allow-listed variables are taken from (default: `process.env`). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Secrets to scrub from the agent's error output besides those found in `baseEnv`. */
  secrets?: readonly (string | undefined)[];
  /** Silence watchdog: no output for this long kills the agent (default: its silence timeout, A12). */
  silenceTimeoutMs?: (request: RunnerRequest) => number;
  /** Between SIGTERM and SIGKILL of the agent's process group (default 5 s). */
  killGraceMs?: number;
  /** How long a CLI agent may linger after its stream-json `result` before it is ended (default 10 s). */
  afterResultMs?: number;
  /** E2: Summon's MCP endpoint for CLI agents (default: one of this runner's, started when first needed). */
  mcpEndpoint?: McpEndpoint;
}

/** Longer system prompts (in bytes) go on stdin: one argument may be at most 128 KiB on Linux. */
const MAX_SYSTEM_ARG = 100_000;

/**
 * A9: a CLI agent (for example Claude Code) as a runner. Each turn runs the agent's `command`
 * in its working directory, in its own process group, with the prompt on stdin and an
 * environment built from an allow-list. Claude Code gets the system prompt through
 * `--append-system-prompt` and a PreToolUse hook that asks this runner (over a per-run loopback
 * channel) for the guardrail decision on each Bash call, and, when the turn has MCP tools,
 * `--mcp-config` naming only Summon's MCP endpoint (E2: the calls are guarded there, E4); any
 * other command gets the system prompt and the prompt on stdin, separated by a blank line.
 * stream-json output becomes text and status-card rows; plain stdout is the reply. A silence
 * watchdog and the abort signal end the whole process group (SIGTERM, then SIGKILL).
 */
export class CommandRunner implements Runner {
  private readonly baseEnv: NodeJS.ProcessEnv;
  private readonly secrets: string[];
  private readonly launcher: ProcessLauncher;
  private hookScript: Promise<string> | undefined;
  private mcpEndpoint: McpEndpoint | undefined;

  constructor(private readonly options: CommandRunnerOptions) {
    this.launcher = options.launcher ?? createProcessLauncher();
    this.baseEnv = options.baseEnv ?? process.env;
    this.secrets = [
      ...secretValuesOf(this.baseEnv),
      ...(options.secrets ?? []).filter((s): s is string => s !== undefined && s !== ''),
    ];
  }

  /** E2: Claude Code is given Summon's MCP endpoint (when its turn has MCP tools); other commands are not. */
  mcpThroughEndpoint(agent: AgentRecord): boolean {
    return isClaudeCode(agent.command?.trim() ?? '');
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const { agent, signal } = request;
    const command = agent.command?.trim() ?? '';
    if (command === '') {
      yield { type: 'error', message: `${agent.name} cannot answer: its \`command\` is not set.` };
      return;
    }
    if (signal.aborted) return;
    const watchdog = new SilenceWatchdog();
    // E2: Claude Code's MCP tools come only through Summon's endpoint (none when the turn has none).
    const mcp = isClaudeCode(command) ? await this.openMcp(request, () => watchdog.heard()) : undefined;
    const channel = await openHookChannel(
      (call, callSignal) =>
        mcp?.decidedAtEndpoint(call.name) === true
          ? Promise.resolve({ allowed: true })
          : request.tools.authorize(call, callSignal),
      signal,
      () => watchdog.heard(), // a decision that took a while is not the agent's silence
      { slots: this.launcher.slots, runId: request.runId },
    ).catch(async (error: unknown) => {
      await mcp?.close();
      throw error;
    });
    let call: LaunchedProcess | undefined;
    const endGroup = () => call?.end(this.options.killGraceMs ?? 5000) ?? Promise.resolve();
    const onAbort = () => void endGroup();
    try {
      const launch = await this.launchPlan(request, command, channel, mcp);
      call = await this.launcher.launch(launch.policy, launch.argv, signal);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) void endGroup(); // stopped while the hook was being installed
      const silenceMs = this.options.silenceTimeoutMs?.(request) ?? agent.silenceTimeoutMinutes * 60_000;
      watchdog.start(
        silenceMs,
        () => channel.pending > 0 || (mcp?.pending ?? 0) > 0,
        () => void endGroup(),
      );
      const events = agentProcessEvents(call.child, launch.stdin, {
        watchdog,
        endGroup,
        afterResultMs: this.options.afterResultMs ?? 10_000,
        lastEvent: (end) => this.terminalEvent({ request, silenceMs, ...end }),
      });
      for await (const event of events) yield event;
    } catch (error) {
      if (!signal.aborted)
        yield {
          type: 'error',
          message: scrubSecrets(
            `${agent.name} cannot answer: ${error instanceof Error ? error.message : String(error)}`,
            this.secrets,
          ),
        };
    } finally {
      watchdog.stop();
      signal.removeEventListener('abort', onAbort);
      await endGroup();
      await channel.close();
      await mcp?.close();
    }
  }

  /** E2: the run's address at the endpoint and Claude Code's config naming it, when the turn has MCP tools. */
  private openMcp(request: RunnerRequest, onSettled: () => void): Promise<ClaudeMcpRun | undefined> {
    this.mcpEndpoint ??= this.options.mcpEndpoint ?? new McpEndpoint();
    return openClaudeMcp(this.mcpEndpoint, {
      runId: request.runId,
      tools: request.tools,
      signal: request.signal,
      onSettled,
      slots: this.launcher.slots,
    });
  }

  /**
   * How the agent is started: its working folder made, Claude Code's PreToolUse hook installed,
   * the system prompt as an argument (Claude Code, when it fits) or ahead of the prompt on stdin,
   * and the sandbox's policy.
   */
  private async launchPlan(
    request: RunnerRequest,
    command: string,
    channel: HookChannel,
    mcp: ClaudeMcpRun | undefined,
  ): Promise<{ policy: SandboxPolicy; argv: ReturnType<typeof shellArgv>; stdin: string }> {
    const claude = isClaudeCode(command);
    await mkdir(request.workingDir, { recursive: true });
    const hookScript = claude ? await this.writeHookScript() : undefined;
    if (hookScript !== undefined)
      await installPreToolUseHook(
        request.workingDir,
        [process.execPath, hookScript].map(shellQuote).join(' '),
      );
    const systemAsArg =
      claude && request.system !== '' && Buffer.byteLength(request.system) <= MAX_SYSTEM_ARG;
    const stdin =
      systemAsArg || request.system === '' ? request.prompt : `${request.system}\n\n${request.prompt}`;
    const env = agentEnvironment(this.baseEnv, {
      // G3: the run's git configuration (the gateway and the run's own credential).
      ...request.env,
      [HOOK_URL_ENV]: channel.url,
      [HOOK_TOKEN_ENV]: channel.token,
      SUMMON_RUN_ID: request.runId,
      ...mcp?.env,
    });
    // X2: the run's egress proxy, with the agent's own model API always reachable.
    const egress = await cliAgentEgress(request.tools.egress, env);
    // X1, X2, A9: the agent (and so its own file tools) sees only the run's folders; the
    // gateway, its hook channel, Summon's MCP endpoint (E2) and the run's egress proxy are its
    // only connections.
    const policy = runSandboxPolicy({
      runId: request.runId,
      workingDir: request.workingDir,
      ...(request.linkedRoots === undefined ? {} : { linkedRoots: request.linkedRoots }),
      env: { ...env, ...egress.env },
      readOnlyPaths: [
        ...programPaths(command, env.PATH ?? ''),
        ...(hookScript === undefined ? [] : [path.dirname(hookScript), ...nodePaths()]),
        ...(mcp === undefined ? [] : [mcp.readOnlyPath]),
        ...(this.options.readOnlyPaths ?? []),
      ],
      forwards: [
        { port: channel.port, target: { host: '127.0.0.1', port: channel.port } },
        ...(mcp === undefined ? [] : [mcp.forward]),
        ...egress.forwards,
      ],
    });
    const argv = shellArgv(command, [
      ...(mcp?.args ?? []),
      ...(systemAsArg ? ['--append-system-prompt', request.system] : []),
    ]);
    return { policy, argv, stdin };
  }

  /** A9: the hook script, once per runner, in a folder of its own (mounted read-only). */
  private writeHookScript(): Promise<string> {
    this.hookScript ??= mkdtemp(path.join(os.tmpdir(), 'summon-hook-')).then((dir) => {
      removeAtExit({ folder: dir });
      return writeHookScript(dir);
    });
    return this.hookScript;
  }

  /** How the turn ends once the agent's process has: the reply, the error, or nothing when stopped. */
  private terminalEvent(
    end: AgentProcessEnd & { request: RunnerRequest; silenceMs: number },
  ): RunnerEvent | undefined {
    const { request, output, stderr, code, killedBy } = end;
    const name = request.agent.name;
    if (request.signal.aborted) return undefined; // a stopped turn ends quietly
    if (end.silent)
      return this.error(
        `${name} printed nothing for ${describeDuration(end.silenceMs)} and was stopped.`,
        stderr,
      );
    if (end.spawnError !== undefined)
      return this.error(`${name}'s command could not start: ${end.spawnError.message}.`, stderr);
    const outcome = output.outcome();
    if (outcome?.type === 'error') return this.error(`${name} failed: ${outcome.message}`, stderr);
    // A stream-json `result` is the answer, even when the process had to be ended after it.
    if (outcome !== undefined && output.format === 'stream-json') return outcome;
    if (code !== 0) {
      const how = code === null ? `was killed by ${killedBy ?? 'a signal'}` : `exited with code ${code}`;
      return this.error(`${name}'s command ${how}.`, stderr);
    }
    return outcome ?? this.error(`${name}'s command finished without printing a reply.`, stderr);
  }

  /** An error with the last lines of the agent's stderr, secrets scrubbed. */
  private error(message: string, stderr: StderrTail): RunnerEvent {
    const tail = stderr.lastLines();
    const text = tail === '' ? message : `${message}\n${tail}`;
    return { type: 'error', message: scrubSecrets(text, this.secrets) };
  }
}

function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} seconds`;
}
