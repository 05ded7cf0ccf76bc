/**
 * E1: an MCP server the workspace declares, as its file says it. Every string value may hold
 * `${env:NAME}` references to Summon's environment; they are stored and exported unexpanded
 * (E2: no credential in the file or the database in clear) and expanded only where Summon
 * itself connects.
 */
export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec;

/** E3: a local program spoken to over stdin/stdout; it runs under the sandbox. */
export interface McpStdioServerSpec {
  /** A slug (`^[a-z0-9][a-z0-9_-]*$`, ≤ 24): tools reach the model as `<name>__<tool>`. */
  name: string;
  transport: 'stdio';
  command: string;
  args: readonly string[];
  /** The only variables of Summon's environment the process gets (values may be `${env:…}`). */
  env: Readonly<Record<string, string>>;
  /** X2, E3: the hosts the process may reach (same syntax as the spaces' `allowedDomains`). */
  allowedDomains: readonly string[];
  /** E3: extra paths readable inside its sandbox, besides its program, scripts and `cwd`. */
  readOnlyPaths: readonly string[];
  cwd?: string;
}

/** E1: a remote server over streamable HTTP. */
export interface McpHttpServerSpec {
  name: string;
  transport: 'http';
  url: string;
  /** Sent with every request (values may be `${env:…}`). */
  headers: Readonly<Record<string, string>>;
  /** E5: tokens from an OAuth 2.1 authorization, the asking member's or the workspace's. */
  auth?: { kind: 'oauth'; tokens: 'member' | 'workspace' };
}

/** E1: a declared server as stored for a workspace. */
export interface McpServerRecord {
  id: string;
  workspaceId: string;
  spec: McpServerSpec;
}

/** E1: the longest server name, so that `<server>__<tool>` fits the providers' 64 characters. */
export const MCP_SERVER_NAME_MAX = 24;
export const MCP_SERVER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
