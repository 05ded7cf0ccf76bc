import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  CommandRunner,
  type CommandRunnerOptions,
} from '../../../src/adapters/runners/command/command-runner';
import { summonCliCommand } from '../../../src/adapters/runners/command/summon-cli-command';
import type { RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import type { ToolAuthorization } from '../../../src/core/ports/turn-tools';
import {
  CLAUDE_COMMAND,
  type FakeClaudeStep,
  openCommandAgentWorkspace,
  RecordingTools,
} from '../../support/command-agent-workspace';
import { waitFor } from '../../support/engine-harness';
import { hostProcessesMatching, literally } from '../../support/host-processes';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';

/** Summon's own secrets, present in the server's environment: none may reach an agent. */
const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-secret-anthropic-0123456789',
  OPENAI_API_KEY: 'sk-openai-secret-0123456789abcdefghij',
  DATABASE_URL: 'postgres://summon:db-password-42@localhost:5432/summon',
  REDIS_URL: 'redis://:redis-password-42@localhost:6379',
  SLACK_BOT_TOKEN: 'xoxb-secret-slack-bot-token-42',
  SLACK_SIGNING_SECRET: 'slack-signing-secret-value-42',
  DISCORD_TOKEN: 'discord-secret-token-value-42',
  GITHUB_TOKEN: 'ghp_secretgithubtoken0123456789abcd',
  GITHUB_APP_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----secret-----END PRIVATE KEY-----',
};
const SYSTEM = 'You are engineer. You write code.';
const PROMPT = 'Check the build, please.';

type Workspace = Awaited<ReturnType<typeof openCommandAgentWorkspace>>;

const allow = async (): Promise<ToolAuthorization> => ({ allowed: true });

describe('CommandRunner: CLI agents on real subprocesses (A9)', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openCommandAgentWorkspace();
  });
  afterEach(() => ws.remove());

  const runner = (options: Partial<CommandRunnerOptions> = {}) =>
    new CommandRunner({
      baseEnv: { ...process.env, ...SECRETS, PATH: ws.path },
      killGraceMs: 1000,
      ...options,
    });
  const request = (command: string, overrides: Partial<RunnerRequest> = {}): RunnerRequest =>
    runnerRequest(
      { agent: testAgent({ adapterId: 'command', command }), system: SYSTEM, prompt: PROMPT },
      { workingDir: ws.workingDir, tools: new RecordingTools(allow), ...overrides },
    );
  const claudeTurn = async (steps: FakeClaudeStep[], tools: RecordingTools, result?: string) => {
    await ws.scenario(steps, result);
    return collectEvents(runner().run(request(CLAUDE_COMMAND, { tools })));
  };
  const lastOf = (events: RunnerEvent[]) => events.at(-1);
  // X3: looked for on the host by command line (a sandboxed agent's pids are its namespace's).
  const agentProcesses = () => hostProcessesMatching(literally(path.join(ws.root, 'bin', 'claude')));
  const grandchildren = () => hostProcessesMatching(`summon-grandchild ${literally(ws.workingDir)}`);

  it('A9: Claude Code stream-json becomes text, status-card rows per tool call and the final reply', async () => {
    const tools = new RecordingTools(allow);
    const events = await claudeTurn(
      [
        { text: 'Let me look.' },
        { bash: 'echo built > build.log && cat build.log' },
        { text: 'The build is fine.' },
      ],
      tools,
      'The build is fine.',
    );
    const row = events.find((e) => e.type === 'tool_start');
    expect(events.filter((e) => e.type !== 'thinking')).toEqual([
      { type: 'text', delta: 'Let me look.' },
      {
        type: 'tool_start',
        callId: expect.stringMatching(/^toolu_/),
        tool: 'Bash',
        summary: 'echo built > build.log && cat build.log',
      },
      { type: 'tool_end', callId: row?.type === 'tool_start' ? row.callId : '', ok: true, summary: 'Bash' },
      { type: 'text', delta: 'The build is fine.' },
      // O3: the result event's usage, with Claude Code's own cost.
      {
        type: 'usage',
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.001,
      },
      { type: 'final', text: 'The build is fine.' },
    ]);
    expect(events[0]).toEqual({ type: 'thinking' });
    // Claude Code gets the system prompt as --append-system-prompt and the prompt on stdin.
    const received = await ws.received();
    expect(received.appendSystemPrompt).toBe(SYSTEM);
    expect(received.prompt).toBe(PROMPT);
    // The hook asked the runner, which asked the guardrails through `authorize`.
    expect(tools.authorized).toEqual([
      {
        callId: expect.stringMatching(/^toolu_/),
        name: 'bash',
        input: { command: 'echo built > build.log && cat build.log' },
      },
    ]);
    expect(await readFile(path.join(ws.workingDir, 'build.log'), 'utf8')).toBe('built\n');
  });

  it('A9: installs the PreToolUse hook in .claude/settings.local.json and keeps the settings already there', async () => {
    await mkdir(path.join(ws.workingDir, '.claude'), { recursive: true });
    await writeFile(
      path.join(ws.workingDir, '.claude', 'settings.local.json'),
      JSON.stringify({
        permissions: { allow: ['Read'] },
        hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'true' }] }] },
      }),
    );
    await claudeTurn([{ text: 'hi' }], new RecordingTools(allow));
    await claudeTurn([{ text: 'hi again' }], new RecordingTools(allow)); // a second turn: still one Summon hook
    const settings = JSON.parse(
      await readFile(path.join(ws.workingDir, '.claude', 'settings.local.json'), 'utf8'),
    );
    expect(settings.permissions).toEqual({ allow: ['Read'] });
    expect(settings.hooks.PostToolUse).toHaveLength(1);
    expect(settings.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['Bash', 'mcp__.*']);
    for (const group of settings.hooks.PreToolUse) {
      expect(group.hooks).toEqual([
        {
          type: 'command',
          // X1: a self-contained script (Summon's own files are not visible in the sandbox).
          command: expect.stringMatching(/summon-pre-tool-use-hook\.cjs$/),
          timeout: expect.any(Number),
        },
      ]);
      // Longer than an approval stays open (G4: 30 minutes), so an `ask` is not cut short.
      expect(group.hooks[0].timeout).toBeGreaterThan(30 * 60);
    }
  });

  it('A9, G1: a denied Bash command is blocked by the hook with the reason, and does not run', async () => {
    const tools = new RecordingTools(async () => ({
      allowed: false,
      reason: 'push_to_remote is denied in this space (space rule).',
    }));
    const events = await claudeTurn([{ bash: 'touch pushed.txt' }, { text: 'I was not allowed.' }], tools);
    expect(existsSync(path.join(ws.workingDir, 'pushed.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ ok: false, summary: 'Bash failed' });
    expect(lastOf(events)).toEqual({ type: 'final', text: 'I was not allowed.' });
    const [hookRun] = await ws.hookRuns();
    // Claude Code's format: a deny decision with the reason, and exit 2 with the reason on stderr.
    expect(hookRun?.status).toBe(2);
    expect(JSON.parse(hookRun?.stdout ?? '')).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'push_to_remote is denied in this space (space rule).',
      },
    });
    expect(hookRun?.stderr).toContain('push_to_remote is denied in this space');
  });

  it('A9, G4: an `ask` waits for the approval (the silence watchdog waits too), then the command runs', async () => {
    let waited = 0;
    const tools = new RecordingTools(async () => {
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 7000)); // a person deciding
      waited = Date.now() - started;
      return { allowed: true };
    });
    await ws.scenario([{ bash: 'echo approved > approved.txt' }, { text: 'Done after approval.' }]);
    const events = await collectEvents(
      runner({ silenceTimeoutMs: () => 6000 }).run(request(CLAUDE_COMMAND, { tools })),
    );
    expect(waited).toBeGreaterThanOrEqual(6900); // longer than the silence timeout
    expect(lastOf(events)).toEqual({ type: 'final', text: 'Done after approval.' });
    expect(await readFile(path.join(ws.workingDir, 'approved.txt'), 'utf8')).toBe('approved\n');
    const [hookRun] = await ws.hookRuns();
    expect(hookRun?.status).toBe(0);
    expect(JSON.parse(hookRun?.stdout ?? '').hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('G2a: stopping the turn while an `ask` waits cancels the wait; the command never runs', async () => {
    let asked = () => {};
    const askedOnce = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let cancelled = false;
    const tools = new RecordingTools(
      (_call, signal) =>
        new Promise((resolve) => {
          asked();
          signal.addEventListener('abort', () => {
            cancelled = true;
            resolve({ allowed: false, reason: 'The run was stopped.' });
          });
        }),
    );
    await ws.scenario([{ bash: 'touch never.txt' }, { text: 'should not get here' }]);
    const abort = new AbortController();
    const run = collectEvents(runner().run(request(CLAUDE_COMMAND, { tools, signal: abort.signal })));
    await askedOnce;
    abort.abort();
    const events = await run;
    expect(cancelled).toBe(true);
    expect(events.some((e) => e.type === 'final' || e.type === 'error')).toBe(false);
    expect(existsSync(path.join(ws.workingDir, 'never.txt'))).toBe(false);
  });

  it('G2a: the hook fails closed when the runner cannot be reached or is not there at all', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 9));
      });
    });
    const input = JSON.stringify({
      session_id: 's',
      cwd: ws.workingDir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git push' },
      tool_use_id: 'toolu_1',
    });
    const gone = await runHook(input, {
      SUMMON_HOOK_URL: `http://127.0.0.1:${closedPort}/pre-tool-use`,
      SUMMON_HOOK_TOKEN: 'whatever',
    });
    expect(gone.code).toBe(2);
    expect(JSON.parse(gone.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(gone.stderr).toMatch(/cannot be reached/);
    const outside = await runHook(input, {});
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/not running inside a Summon run/);
    const garbage = await runHook('not json', {
      SUMMON_HOOK_URL: 'http://127.0.0.1:1/x',
      SUMMON_HOOK_TOKEN: 't',
    });
    expect(garbage.code).toBe(2);
  });

  it('G2a: a hook with the wrong token is refused by the runner, so the call is denied', async () => {
    // An agent that tampers with the channel's token in its environment gets nothing through.
    await ws.scenario([{ bash: 'touch tampered.txt' }, { text: 'ok' }]);
    const tools = new RecordingTools(allow);
    const events = await collectEvents(
      runner().run(request(`SUMMON_HOOK_TOKEN=forged ${CLAUDE_COMMAND}`, { tools })),
    );
    expect(tools.authorized).toEqual([]);
    expect(existsSync(path.join(ws.workingDir, 'tampered.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ ok: false });
    const [hookRun] = await ws.hookRuns();
    expect(hookRun?.stderr).toMatch(/HTTP 401/);
  });

  it('A9: plain stdout is the reply; a non-Claude command gets the system prompt and the prompt on stdin', async () => {
    const events = await collectEvents(runner().run(request('cat')));
    expect(lastOf(events)).toEqual({ type: 'final', text: `${SYSTEM}\n\n${PROMPT}` });
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(0);
    const printed = await collectEvents(runner().run(request("printf 'line one\\nline two\\n'")));
    expect(lastOf(printed)).toEqual({ type: 'final', text: 'line one\nline two' });
  });

  it('A9: the environment is built from an allow-list: no Summon secret reaches the agent (env dump)', async () => {
    const events = await collectEvents(runner().run(request('env')));
    const last = lastOf(events);
    if (last?.type !== 'final') throw new Error(`expected a reply, got ${JSON.stringify(events)}`);
    const names = last.text.split('\n').map((line) => line.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'SUMMON_HOOK_URL', 'SUMMON_HOOK_TOKEN']));
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(names).not.toContain(name);
      expect(last.text).not.toContain(value);
    }
    // The same holds for the environment Claude Code itself sees.
    await claudeTurn([{ text: 'hi' }], new RecordingTools(allow));
    const { env } = await ws.received();
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(env[name]).toBeUndefined();
      expect(JSON.stringify(env)).not.toContain(value);
    }
  });

  it('A9: a non-zero exit is an error with the last stderr lines, secrets scrubbed', async () => {
    const events = await collectEvents(
      runner({ secrets: ['model-key-given-by-config-42'] }).run(
        request(
          `echo "starting" >&2; echo "auth failed for ${SECRETS.ANTHROPIC_API_KEY} and model-key-given-by-config-42" >&2; echo "token ghp_abcdefghijklmnopqrstuvwx0123" >&2; exit 3`,
        ),
      ),
    );
    const last = lastOf(events);
    if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(events)}`);
    expect(last.message).toContain('exited with code 3');
    expect(last.message).toContain('starting');
    expect(last.message).toContain('auth failed for [redacted]');
    expect(last.message).not.toContain(SECRETS.ANTHROPIC_API_KEY);
    expect(last.message).not.toContain('model-key-given-by-config-42');
    expect(last.message).not.toContain('ghp_abcdefghijklmnopqrstuvwx0123');
  });

  it('A9: a Claude Code `result` with is_error becomes the turn’s error', async () => {
    const events = await claudeTurn(
      [{ text: 'trying' }, { error: 'Reached the maximum number of turns.' }],
      new RecordingTools(allow),
    );
    const last = lastOf(events);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && last.message).toContain('Reached the maximum number of turns.');
    expect(events.filter((e) => e.type === 'final' || e.type === 'error')).toHaveLength(1);
  });

  it('A9: abort kills the whole process group (agent and grandchild), no orphan survives, no event after', async () => {
    await ws.scenario([{ grandchild: 'pids.json' }, { text: 'working…' }, { sleepMs: 60_000 }]);
    const abort = new AbortController();
    const started = Date.now();
    const run = collectEvents(runner().run(request(CLAUDE_COMMAND, { signal: abort.signal })));
    await waitFor(async () =>
      JSON.parse(await readFile(path.join(ws.workingDir, 'pids.json'), 'utf8').catch(() => 'null')),
    );
    expect(agentProcesses()).not.toEqual([]);
    expect(grandchildren()).not.toEqual([]);
    abort.abort();
    const events = await run;
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(events.some((e) => e.type === 'final' || e.type === 'error')).toBe(false);
    expect(agentProcesses()).toEqual([]);
    expect(grandchildren()).toEqual([]);
  });

  it('A9: a turn that ends normally leaves no background process of the agent behind', async () => {
    const events = await claudeTurn(
      [{ grandchild: 'pids.json' }, { text: 'done' }],
      new RecordingTools(allow),
    );
    expect(lastOf(events)).toEqual({ type: 'final', text: 'done' });
    expect(JSON.parse(await readFile(path.join(ws.workingDir, 'pids.json'), 'utf8')).grandchild).toEqual(
      expect.any(Number),
    );
    expect(grandchildren()).toEqual([]);
  });

  it('A9: a CLI that answers but does not exit is ended after its result, and the answer stands', async () => {
    await ws.scenario([{ grandchild: 'pids.json' }, { text: 'answered' }], undefined, {
      lingerAfterResult: true,
    });
    const started = Date.now();
    const events = await collectEvents(runner({ afterResultMs: 300 }).run(request(CLAUDE_COMMAND)));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(lastOf(events)).toEqual({ type: 'final', text: 'answered' });
    expect(JSON.parse(await readFile(path.join(ws.workingDir, 'pids.json'), 'utf8')).grandchild).toEqual(
      expect.any(Number),
    );
    expect(agentProcesses()).toEqual([]);
    expect(grandchildren()).toEqual([]);
  });

  it('A9, A12: the silence watchdog kills an agent that prints nothing, with its children', async () => {
    const started = Date.now();
    const events = await collectEvents(
      runner({ silenceTimeoutMs: () => 2000 }).run(request('sleep 60.4321 & echo $! > sleeper.pid; wait')),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    const last = lastOf(events);
    if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(events)}`);
    expect(last.message).toMatch(/engineer printed nothing for 2\.0 seconds and was stopped/);
    expect(Number(await readFile(path.join(ws.workingDir, 'sleeper.pid'), 'utf8'))).toBeGreaterThan(0);
    expect(hostProcessesMatching('sleep 60[.]4321')).toEqual([]);
  });

  it('A9: an agent with no command gets a sentence, not a crash', async () => {
    const events = await collectEvents(
      runner().run(
        runnerRequest(
          { agent: testAgent({ adapterId: 'command', command: null }), system: SYSTEM, prompt: PROMPT },
          { workingDir: ws.workingDir },
        ),
      ),
    );
    expect(events).toEqual([{ type: 'error', message: 'engineer cannot answer: its `command` is not set.' }]);
  });
});

/** Runs `summon hook pre-tool-use` the way Claude Code does: a shell, the hook JSON on stdin. */
function runHook(
  input: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [node, ...args] = summonCliCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(node ?? process.execPath, [...args, 'hook', 'pre-tool-use'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
