import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolAuthorization, ToolCall, ToolOutcome, TurnTools } from '../../src/core/ports/turn-tools';
import { makeTempDir } from './temp-dir';

/** The Claude Code command line a workspace file would hold. */
export const CLAUDE_COMMAND =
  'claude -p --output-format stream-json --verbose --dangerously-skip-permissions';

export type FakeClaudeStep =
  | { text: string }
  | { bash: string }
  /** E2: a call of `mcp__<server>__<tool>` (the first server of its config unless `server`). */
  | { mcp: string; input?: Record<string, unknown>; server?: string }
  | { sleepMs: number }
  | { grandchild: string }
  | { stderr: string }
  | { error: string }
  | { exit: number };

/**
 * A temp directory with a working directory for an agent and a `bin` holding `claude` (the
 * fake Claude Code stand-in), for runner tests with real subprocesses.
 */
export async function openCommandAgentWorkspace() {
  const root = await makeTempDir('summon-command-');
  const bin = path.join(root.path, 'bin');
  const workingDir = path.join(root.path, 'agents', 'engineer');
  await mkdir(bin, { recursive: true });
  await mkdir(workingDir, { recursive: true });
  await symlink(path.join(__dirname, 'stand-ins', 'fake-claude.js'), path.join(bin, 'claude'));
  return {
    root: root.path,
    workingDir,
    /** PATH with the fake `claude` first. */
    path: `${bin}:${process.env.PATH ?? ''}`,
    scenario: (steps: FakeClaudeStep[], result?: string, options: { lingerAfterResult?: boolean } = {}) =>
      writeFile(
        path.join(workingDir, 'fake-claude-scenario.json'),
        JSON.stringify({ steps, ...(result === undefined ? {} : { result }), ...options }),
      ),
    received: async (): Promise<{
      args: string[];
      prompt: string;
      appendSystemPrompt: string | null;
      env: Record<string, string>;
      /** E2: the MCP servers it would use (its `--mcp-config`, and `.mcp.json` unless strict). */
      mcpServers: Record<string, { type?: string; url?: string }>;
    }> => JSON.parse(await readFile(path.join(workingDir, 'fake-claude-received.json'), 'utf8')),
    /** E2: the MCP servers the fake Claude Code connected to at start-up, and what each listed. */
    mcpConnected: async (): Promise<
      Record<string, { status: string; error?: string; tools: { name: string; description?: string }[] }>
    > => JSON.parse(await readFile(path.join(workingDir, 'fake-claude-mcp.json'), 'utf8')),
    /** E2: each MCP call it made: the tool, whether its hook blocked it, and the result. */
    mcpCalls: () => mcpCallsIn(workingDir),
    /** What each hook run printed and exited with, as the fake Claude Code saw it. */
    hookRuns: async (): Promise<{ status: number | null; stdout: string; stderr: string }[]> => {
      const text = await readFile(path.join(workingDir, 'fake-claude-hooks.jsonl'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
    },
    remove: root.remove,
  };
}

/**
 * A `TurnTools` for runner tests: records every authorize call and answers with the decision
 * the test gives (which may wait, as an `ask` waits for a person).
 */
export class RecordingTools implements TurnTools {
  readonly specs = [];
  readonly authorized: ToolCall[] = [];

  constructor(private readonly decide: (call: ToolCall, signal: AbortSignal) => Promise<ToolAuthorization>) {}

  async call(call: ToolCall): Promise<ToolOutcome> {
    return { ok: false, output: `${call.name} is not offered to a CLI agent` };
  }

  authorize(call: ToolCall, signal: AbortSignal): Promise<ToolAuthorization> {
    this.authorized.push(call);
    return this.decide(call, signal);
  }
}

/** E2: the MCP calls the fake Claude Code made in `workingDir`, in order. */
export async function mcpCallsIn(
  workingDir: string,
): Promise<{ tool: string; blocked: boolean; text: string; isError: boolean }[]> {
  const text = await readFile(path.join(workingDir, 'fake-claude-mcp-calls.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
