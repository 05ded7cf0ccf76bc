import { AgentOutput } from '../../../src/adapters/runners/command/agent-output';
import { isClaudeCode, shellArgv, shellQuote } from '../../../src/adapters/runners/command/command-line';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { hookDecisionOutput, toToolCall } from '../../../src/adapters/runners/command/pre-tool-use-protocol';
import { scrubSecrets } from '../../../src/adapters/runners/command/scrub-secrets';
import { StreamJsonTranslator } from '../../../src/adapters/runners/command/stream-json-events';
import { createRunnerResolver } from '../../../src/adapters/runners/runner-resolver';
import { UnconfiguredRunner } from '../../../src/adapters/runners/unconfigured-runner';
import { agentEnvironment, secretValuesOf } from '../../../src/core/tools/agent-environment';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';

const lines = (...events: unknown[]) => events.map((e) => `${JSON.stringify(e)}\n`).join('');

/** Recorded Claude Code stream-json (claude -p --output-format stream-json --verbose). */
const RECORDED = lines(
  {
    type: 'system',
    subtype: 'init',
    cwd: '/w',
    session_id: 's1',
    tools: ['Bash'],
    model: 'claude-sonnet-4-6',
  },
  {
    type: 'assistant',
    message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
    session_id: 's1',
  },
  {
    type: 'assistant',
    message: {
      id: 'msg_2',
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'Bash',
          input: { command: 'npm test', description: 'Run tests' },
        },
      ],
    },
    session_id: 's1',
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'ok', is_error: false }],
    },
    session_id: 's1',
  },
  {
    type: 'assistant',
    message: {
      id: 'msg_3',
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/w/src/app.ts' } }],
    },
    session_id: 's1',
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: 'toolu_2', type: 'tool_result', content: 'nope', is_error: true }],
    },
    session_id: 's1',
  },
  {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'Tests pass.',
    session_id: 's1',
    num_turns: 3,
  },
);

describe('Claude Code stream-json (A9, P9)', () => {
  it('becomes thinking, text, one tool row per call, and holds back the final reply until the end', () => {
    const output = new AgentOutput();
    // Chunks split anywhere, as a pipe delivers them.
    const events = [RECORDED.slice(0, 77), RECORDED.slice(77, 400), RECORDED.slice(400)].flatMap((c) =>
      output.take(c),
    );
    expect(events).toEqual([
      { type: 'thinking' },
      { type: 'text', delta: 'Looking.' },
      { type: 'tool_start', callId: 'toolu_1', tool: 'Bash', summary: 'npm test' },
      { type: 'tool_end', callId: 'toolu_1', ok: true, summary: 'Bash' },
      { type: 'tool_start', callId: 'toolu_2', tool: 'Read', summary: '/w/src/app.ts' },
      { type: 'tool_end', callId: 'toolu_2', ok: false, summary: 'Read failed' },
    ]);
    expect(output.format).toBe('stream-json');
    expect(output.outcome()).toEqual({ type: 'final', text: 'Tests pass.' });
  });

  it('an error result (is_error, error_* subtypes) is the error', () => {
    const translator = new StreamJsonTranslator();
    expect(
      translator.translate(
        JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 401' }),
      ),
    ).toEqual([{ type: 'error', message: 'API Error: 401' }]);
    expect(
      translator.translate(JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true })),
    ).toEqual([{ type: 'error', message: 'error_max_turns' }]);
  });

  it('plain output is the reply, streamed as text; an empty output has no outcome', () => {
    const output = new AgentOutput();
    const events = [...output.take('Hello\nthere'), ...output.take(' friend\n'), ...output.flush()];
    expect(events.map((e) => (e.type === 'text' ? e.delta : e.type)).join('')).toBe('Hello\nthere friend\n');
    expect(output.outcome()).toEqual({ type: 'final', text: 'Hello\nthere friend' });
    expect(new AgentOutput().outcome()).toBeUndefined();
  });

  it('a JSON line that is not a Claude Code event is plain output', () => {
    const output = new AgentOutput();
    output.take('{"answer": 42}\n');
    expect(output.format).toBe('plain');
    expect(output.outcome()).toEqual({ type: 'final', text: '{"answer": 42}' });
  });
});

describe('the agent environment (A9: no Summon secret reaches a CLI agent)', () => {
  const server = {
    PATH: '/usr/bin',
    HOME: '/home/summon',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm',
    ANTHROPIC_API_KEY: 'sk-ant-secret-value',
    DATABASE_URL: 'postgres://u:p@h/db',
    REDIS_URL: 'redis://:p@h:6379',
    SLACK_SIGNING_SECRET: 'signing-secret',
    GITHUB_APP_PRIVATE_KEY: 'private-key-pem',
    NODE_OPTIONS: '--require /tmp/evil.js',
  };

  it('keeps only allow-listed variables and adds the run’s own', () => {
    expect(agentEnvironment(server, { SUMMON_HOOK_URL: 'http://127.0.0.1:1/pre-tool-use' })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/summon',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
      SUMMON_HOOK_URL: 'http://127.0.0.1:1/pre-tool-use',
    });
  });

  it('passes SUMMON_AGENT_ENV_<NAME> to the agent as <NAME>, the operator’s choice for agents', () => {
    const env = agentEnvironment(
      { ...server, SUMMON_AGENT_ENV_ANTHROPIC_API_KEY: 'sk-ant-agent-own-key' },
      {},
    );
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-agent-own-key');
    expect(env.SUMMON_AGENT_ENV_ANTHROPIC_API_KEY).toBeUndefined();
    expect(Object.values(env)).not.toContain('sk-ant-secret-value');
  });

  it('knows the secret values of the server environment, for scrubbing', () => {
    expect(secretValuesOf(server)).toEqual(
      expect.arrayContaining([
        'sk-ant-secret-value',
        'postgres://u:p@h/db',
        'redis://:p@h:6379',
        'signing-secret',
      ]),
    );
    expect(secretValuesOf(server)).not.toContain('/usr/bin');
  });

  it('scrubs known values and token shapes', () => {
    const text =
      'key sk-ant-secret-value; gh ghp_0123456789abcdefghijABCD; slack xoxb-1234-5678-abcdef; url https://bob:hunter2@example.com/x; Authorization: Bearer abcdefghijklmnop';
    const scrubbed = scrubSecrets(text, ['sk-ant-secret-value']);
    for (const secret of ['sk-ant-secret-value', 'ghp_0123', 'xoxb-1234', 'hunter2', 'abcdefghijklmnop'])
      expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('example.com/x');
  });
});

describe('command lines and the hook protocol (A9)', () => {
  it('recognises Claude Code, also after assignments or as a path', () => {
    expect(isClaudeCode('claude -p --output-format stream-json --verbose')).toBe(true);
    expect(isClaudeCode('FOO=1 /usr/local/bin/claude -p')).toBe(true);
    expect(isClaudeCode('aider --yes')).toBe(false);
    expect(isClaudeCode('claude-wrapper -p')).toBe(false);
  });

  it('passes Summon’s arguments as "$@" so that they need no quoting', () => {
    expect(shellArgv('claude -p', ['--append-system-prompt', "it's `x` $HOME"])).toEqual([
      '/bin/sh',
      '-c',
      'claude -p "$@"',
      'summon-agent',
      '--append-system-prompt',
      "it's `x` $HOME",
    ]);
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
  });

  it('maps Claude Code’s Bash to Summon’s bash and prints decisions in Claude Code’s format', () => {
    expect(
      toToolCall({
        tool_name: 'Bash',
        tool_input: { command: 'git push', description: 'd' },
        tool_use_id: 'toolu_9',
      }),
    ).toEqual({ callId: 'toolu_9', name: 'bash', input: { command: 'git push' } });
    expect(
      toToolCall({ tool_name: 'mcp__github__create_pr', tool_input: { title: 't' }, tool_use_id: 'x' }),
    ).toEqual({
      callId: 'x',
      name: 'mcp__github__create_pr',
      input: { title: 't' },
    });
    expect(JSON.parse(hookDecisionOutput({ allowed: false, reason: 'no pushes' }))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no pushes',
      },
    });
  });
});

describe('runner resolver for adapter command (A10)', () => {
  const resolve = createRunnerResolver({
    anthropicApiKey: undefined,
    anthropicBaseUrl: undefined,
    defaultModel: 'claude-sonnet-4-6',
    openaiBaseUrl: undefined,
    openaiApiKey: undefined,
  });

  it('runs an agent with a command on the command runner', () => {
    expect(resolve(testAgent({ adapterId: 'command', command: 'claude -p' }))).toBeInstanceOf(CommandRunner);
  });

  it('tells how to set the command when an agent has adapter command but none', async () => {
    const agent = testAgent({ adapterId: 'command', command: null });
    const runner = resolve(agent);
    expect(runner).toBeInstanceOf(UnconfiguredRunner);
    const events = await collectEvents(runner.run(runnerRequest({ agent, system: 's', prompt: 'p' })));
    expect(events).toEqual([
      {
        type: 'error',
        message: expect.stringMatching(/^engineer cannot answer: .*no `command`.*summon apply/),
      },
    ]);
  });
});
