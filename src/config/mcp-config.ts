/** E2, E3: how Summon's MCP client keeps its connections and bounds its calls. */
export interface McpConfig {
  /** `SUMMON_MCP_IDLE_SECONDS`: a server connection unused this long is closed (default 300). */
  idleMs: number;
  /** `SUMMON_MCP_CALL_TIMEOUT_SECONDS`: one MCP call's longest time (default 60). */
  callTimeoutMs: number;
}

export const DEFAULT_MCP_IDLE_SECONDS = 300;
export const DEFAULT_MCP_CALL_TIMEOUT_SECONDS = 60;

export function parseMcpConfig(env: NodeJS.ProcessEnv): McpConfig {
  return {
    idleMs: seconds('SUMMON_MCP_IDLE_SECONDS', env.SUMMON_MCP_IDLE_SECONDS, DEFAULT_MCP_IDLE_SECONDS) * 1000,
    callTimeoutMs:
      seconds(
        'SUMMON_MCP_CALL_TIMEOUT_SECONDS',
        env.SUMMON_MCP_CALL_TIMEOUT_SECONDS,
        DEFAULT_MCP_CALL_TIMEOUT_SECONDS,
      ) * 1000,
  };
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  const text = value?.trim();
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`${name} must be a whole number of seconds, at least 1, got "${text}"`);
  }
  return n;
}
