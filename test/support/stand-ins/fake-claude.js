#!/usr/bin/env node
/**
 * A stand-in for Claude Code in print mode (`claude -p --output-format stream-json --verbose`):
 * it validates its arguments the way the real CLI does, reads the prompt from stdin, follows
 * the scenario in `fake-claude-scenario.json` of its working directory, and writes recorded
 * stream-json events (`system`/`init`, `assistant` with `text`/`tool_use`, `user` with
 * `tool_result`, `result`). Before each Bash call it runs the PreToolUse hooks of
 * `.claude/settings.local.json` exactly as Claude Code does: the hook command under a shell,
 * the hook JSON on stdin, then exit code 2 = block (stderr is the reason), exit 0 with
 * `hookSpecificOutput.permissionDecision` = the decision, any other exit = a non-blocking error
 * (the call proceeds). What it received is written to `fake-claude-received.json`.
 * MCP (`fake-claude-mcp.js`): the servers of `--mcp-config` are connected at start-up (what
 * each listed goes to `fake-claude-mcp.json`); an `mcp` step calls `mcp__<server>__<tool>`
 * after the PreToolUse hooks, as Claude Code does, and appends the outcome to
 * `fake-claude-mcp-calls.jsonl`.
 */
const { execSync, spawn, spawnSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { callTool, connectAll, mcpServers } = require('./fake-claude-mcp.js');

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const optionValue = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const fail = (message) => {
  process.stderr.write(`Error: ${message}\n`);
  process.exit(1);
};
if (!flag('-p') && !flag('--print'))
  fail('Input must be provided either through stdin or as a prompt argument when using --print');
const format = optionValue('--output-format') ?? 'text';
if (!['text', 'json', 'stream-json'].includes(format)) fail(`Invalid output format: ${format}`);
if (format === 'stream-json' && !flag('--verbose'))
  fail('When using --print, --output-format=stream-json requires --verbose');
if (flag('--append-system-prompt') && optionValue('--append-system-prompt') === undefined)
  fail("option '--append-system-prompt <prompt>' argument missing");

const cwd = process.cwd();
let servers = {};
try {
  servers = mcpServers(args, cwd);
} catch (error) {
  fail(error.message);
}
const sessionId = randomUUID();
const scenario = JSON.parse(fs.readFileSync(path.join(cwd, 'fake-claude-scenario.json'), 'utf8'));
const emit = (event) => {
  if (format === 'stream-json') process.stdout.write(`${JSON.stringify(event)}\n`);
};
const message = (role, content) => ({
  type: role,
  message:
    role === 'assistant'
      ? {
          id: `msg_${randomUUID().slice(0, 8)}`,
          type: 'message',
          role,
          model: 'claude-sonnet-4-6',
          content,
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }
      : { role, content },
  parent_tool_use_id: null,
  session_id: sessionId,
});

function settingsHooks() {
  const groups = [];
  for (const name of ['settings.json', 'settings.local.json']) {
    const file = path.join(cwd, '.claude', name);
    if (!fs.existsSync(file)) continue;
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    groups.push(...(settings.hooks?.PreToolUse ?? []));
  }
  return groups;
}

/** Claude Code's PreToolUse protocol; returns { blocked, reason }. */
function runPreToolUseHooks(toolName, toolInput, toolUseId) {
  const input = JSON.stringify({
    session_id: sessionId,
    transcript_path: path.join(cwd, '.transcript.jsonl'),
    cwd,
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: toolUseId,
  });
  for (const group of settingsHooks()) {
    const matcher = group.matcher ?? '';
    if (matcher !== '' && matcher !== '*' && !new RegExp(`^(?:${matcher})$`).test(toolName)) continue;
    for (const hook of group.hooks ?? []) {
      if (hook.type !== 'command') continue;
      const run = spawnSync('/bin/sh', ['-c', hook.command], {
        cwd,
        input,
        env: { ...process.env, CLAUDE_PROJECT_DIR: cwd },
        timeout: (hook.timeout ?? 60) * 1000,
        encoding: 'utf8',
      });
      fs.appendFileSync(
        path.join(cwd, 'fake-claude-hooks.jsonl'),
        `${JSON.stringify({ status: run.status, stdout: run.stdout, stderr: run.stderr })}\n`,
      );
      if (run.status === 2) return { blocked: true, reason: run.stderr.trim() };
      if (run.status !== 0) continue; // a non-blocking error: Claude Code carries on
      const out = run.stdout.trim();
      if (!out.startsWith('{')) continue;
      const decision = JSON.parse(out).hookSpecificOutput;
      if (decision?.permissionDecision === 'deny')
        return { blocked: true, reason: decision.permissionDecisionReason ?? '' };
    }
  }
  return { blocked: false, reason: '' };
}

async function main() {
  let prompt = '';
  for await (const chunk of process.stdin) prompt += chunk;
  fs.writeFileSync(
    path.join(cwd, 'fake-claude-received.json'),
    JSON.stringify({
      args,
      prompt,
      appendSystemPrompt: optionValue('--append-system-prompt') ?? null,
      env: process.env,
      mcpServers: servers,
    }),
  );
  const connected = await connectAll(servers);
  fs.writeFileSync(path.join(cwd, 'fake-claude-mcp.json'), JSON.stringify(connected));
  const mcpTools = Object.entries(connected).flatMap(([name, found]) =>
    found.tools.map((tool) => `mcp__${name}__${tool.name}`),
  );
  emit({
    type: 'system',
    subtype: 'init',
    cwd,
    session_id: sessionId,
    tools: ['Bash', 'Read', 'Write', ...mcpTools],
    mcp_servers: Object.entries(connected).map(([name, found]) => ({ name, status: found.status })),
    model: 'claude-sonnet-4-6',
    permissionMode: 'bypassPermissions',
    apiKeySource: 'none',
  });
  let lastText = '';
  for (const step of scenario.steps) {
    if (step.text !== undefined) {
      lastText = step.text;
      emit(message('assistant', [{ type: 'text', text: step.text }]));
    } else if (step.bash !== undefined) {
      const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const toolInput = { command: step.bash, description: 'Run a command' };
      emit(message('assistant', [{ type: 'tool_use', id, name: 'Bash', input: toolInput }]));
      const { blocked, reason } = runPreToolUseHooks('Bash', toolInput, id);
      let content;
      let isError = blocked;
      if (blocked) content = reason;
      else {
        try {
          content = execSync(step.bash, { cwd, encoding: 'utf8', shell: '/bin/sh' });
        } catch (error) {
          content = String(error.stderr ?? error.message);
          isError = true;
        }
      }
      emit(message('user', [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }]));
    } else if (step.mcp !== undefined) {
      const server = step.server ?? Object.keys(servers)[0] ?? 'none';
      const name = `mcp__${server}__${step.mcp}`;
      const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const toolInput = step.input ?? {};
      emit(message('assistant', [{ type: 'tool_use', id, name, input: toolInput }]));
      const { blocked, reason } = runPreToolUseHooks(name, toolInput, id);
      const result = blocked
        ? { text: reason, isError: true }
        : servers[server] === undefined
          ? { text: `No such tool available: ${name}`, isError: true }
          : await callTool(servers[server], step.mcp, toolInput);
      fs.appendFileSync(
        path.join(cwd, 'fake-claude-mcp-calls.jsonl'),
        `${JSON.stringify({ tool: name, blocked, ...result })}\n`,
      );
      emit(
        message('user', [
          { tool_use_id: id, type: 'tool_result', content: result.text, is_error: result.isError },
        ]),
      );
    } else if (step.sleepMs !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, step.sleepMs));
    } else if (step.grandchild !== undefined) {
      // A background process of the agent's own (a dev server, a watcher) that outlives its call.
      // Its command line names the working directory, so a test can look for it on the host (a
      // sandboxed agent's pids are those of its own pid namespace).
      const child = spawn(
        process.execPath,
        ['-e', `setInterval(() => {}, 1000) // summon-grandchild ${cwd}`],
        {
          stdio: 'ignore',
        },
      );
      child.unref();
      // Written whole (temporary file, then rename): a test polls for it while it is written.
      const target = path.join(cwd, step.grandchild);
      fs.writeFileSync(`${target}.tmp`, JSON.stringify({ agent: process.pid, grandchild: child.pid }));
      fs.renameSync(`${target}.tmp`, target);
    } else if (step.stderr !== undefined) {
      process.stderr.write(`${step.stderr}\n`);
    } else if (step.error !== undefined) {
      emit({
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        duration_ms: 10,
        num_turns: 1,
        result: step.error,
        session_id: sessionId,
        total_cost_usd: 0,
      });
      process.exit(1);
    } else if (step.exit !== undefined) {
      process.exit(step.exit);
    }
  }
  const result = scenario.result ?? lastText;
  if (format === 'text') process.stdout.write(`${result}\n`);
  emit({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 10,
    duration_api_ms: 8,
    num_turns: scenario.steps.length,
    result,
    session_id: sessionId,
    total_cost_usd: 0.001,
    usage: { input_tokens: 10, output_tokens: 5 },
  });
}

main();
