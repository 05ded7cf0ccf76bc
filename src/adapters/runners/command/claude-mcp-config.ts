import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProcessSlots } from '../../../core/ports/process-slots';
import type { TurnTools } from '../../../core/ports/turn-tools';
import { hasEndpointTools } from '../../mcp-endpoint/endpoint-tools';
import type { McpEndpoint } from '../../mcp-endpoint/mcp-endpoint';
import type { SandboxForward } from '../../sandbox/sandbox-policy';
import { HOOK_TIMEOUT_SECONDS } from './claude-code-hook';

/** E2: the name Claude Code knows Summon's endpoint by (its tools are `mcp__summon__<tool>`). */
export const SUMMON_MCP_SERVER = 'summon';
const ENDPOINT_TOOL_PREFIX = `mcp__${SUMMON_MCP_SERVER}__`;

/** What a Claude Code run with MCP tools is started with. */
export interface ClaudeMcpRun {
  /** `--mcp-config <file> --strict-mcp-config`: Summon's endpoint and no other server. */
  args: string[];
  /** X2: the endpoint's port on the sandbox's loopback. */
  forward: SandboxForward;
  /** X1: the config's folder, read-only in the sandbox. */
  readOnlyPath: string;
  /** Claude Code waits for an MCP call as long as its hook may wait for an approval (G4). */
  env: Record<string, string>;
  /** Calls under way at the endpoint (an approval may be open): not silence (A12). */
  readonly pending: number;
  /**
   * E4: a call to one of the endpoint's tools is decided at the endpoint, where it is made;
   * the PreToolUse hook lets it through rather than ask twice.
   */
  decidedAtEndpoint(toolName: string): boolean;
  /** Revokes the run's address and removes its config. */
  close(): Promise<void>;
}

/**
 * E2, A9: when the turn has MCP tools, the run's address at Summon's endpoint, written as
 * Claude Code's `--mcp-config` file (`{"mcpServers":{"summon":{"type":"http","url":…}}}`) in
 * a private folder of its own; with `--strict-mcp-config` Claude Code ignores every other MCP
 * configuration (the project's `.mcp.json`, the user's). The file holds only the run's
 * address, no server credential (E2); it is not passed inline, where other users of the host
 * would see it in the process list. Undefined when the turn has no MCP tools.
 */
export async function openClaudeMcp(
  endpoint: McpEndpoint,
  run: { runId: string; tools: TurnTools; signal: AbortSignal; slots?: ProcessSlots; onSettled: () => void },
): Promise<ClaudeMcpRun | undefined> {
  if (!hasEndpointTools(run.tools)) return undefined;
  const opened = await endpoint.open(run);
  let dir: string | undefined;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), 'summon-agent-mcp-'));
    await chmod(dir, 0o700);
    const file = path.join(dir, 'mcp.json');
    const config = { mcpServers: { [SUMMON_MCP_SERVER]: { type: 'http', url: opened.url } } };
    await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    const folder = dir;
    return {
      args: ['--mcp-config', file, '--strict-mcp-config'],
      forward: { port: opened.port, target: { host: '127.0.0.1', port: opened.port } },
      readOnlyPath: folder,
      env: { MCP_TOOL_TIMEOUT: String(HOOK_TIMEOUT_SECONDS * 1000) },
      get pending() {
        return opened.pending;
      },
      decidedAtEndpoint: (toolName) => toolName.startsWith(ENDPOINT_TOOL_PREFIX),
      close: async () => {
        await opened.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await opened.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
