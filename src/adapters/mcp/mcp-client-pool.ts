import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { Logger } from '../../core/ports/logger';
import type { McpCallContext, McpClients, McpToolInfo, McpUnavailable } from '../../core/ports/mcp-clients';
import type { ToolOutcome } from '../../core/ports/turn-tools';
import { type HostResolver, systemResolver } from '../egress-proxy/host-resolver';
import { removeAtExit } from '../sandbox/exit-cleanup';
import type { ProcessLauncher } from '../sandbox/process-launcher';
import type { SandboxLimits } from '../sandbox/sandbox-policy';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error';
import { DEFAULT_MAX_RESULT_CHARS, resultOutcome } from './call-result-text';
import { failureSentence } from './failure-sentence';
import { toolInfos } from './listed-tools';
import { McpConnection, untilAborted } from './mcp-connection';
import { openTransport, ServerStartError, type TransportSettings } from './server-transport';
import { expandedSecrets, redactor } from './spec-secrets';
import { qualifiedToolName } from './tool-names';

/** E2: `${env:NAME}` expanded in a spec's values, or the variables that are not set. */
export type ExpandSpec = (
  spec: McpServerSpec,
) => { ok: true; spec: McpServerSpec } | { ok: false; missing: readonly string[] };

export interface McpClientPoolOptions {
  expand: ExpandSpec;
  /** E3, X1–X4: starts stdio servers (its own process bound: a server lives across turns). */
  launcher: ProcessLauncher;
  logger: Logger;
  /** X2: never reached by a server's proxy (the git gateway's port, Summon's HTTP port). */
  forbiddenPorts?: readonly number[];
  /** Default: the system resolver. Tests map their test domains to 127.0.0.1 here. */
  resolve?: HostResolver;
  /** Where stdio servers' private folders are made (default: the system's temporary folder). */
  stateDir?: string;
  /** A connection unused this long is closed (default 5 minutes). */
  idleMs?: number;
  /** E3: one call's longest time (default 60 s); connecting and listing get the same. */
  callTimeoutMs?: number;
  /** E3: the most text of one answer the model is given (default 64 KB). */
  maxResultChars?: number;
  /** E3: the largest single message read from a server (default 8 MB). */
  maxMessageBytes?: number;
  /** X3: a stdio server's limits (default: the sandbox's). */
  limits?: SandboxLimits;
  /** Where a stdio server's bare program name is looked for (default: Summon's PATH). */
  searchPath?: string;
}

/** A pooled connection's promise, for callers that arrive while it connects. */
interface Entry {
  connection: Promise<McpConnection>;
}

/**
 * E2, E3: Summon as the only MCP client. One connection per workspace and server spec (keyed by
 * a hash of the expanded spec, so a changed entry or credential is a new connection), closed
 * after `idleMs` unused and by `close()`; one whose server exited is dropped, and the next call
 * connects (starts the server) again. Nothing here throws to the caller: every failure is a
 * sentence naming the server and the tool.
 */
export class McpClientPool implements McpClients {
  private readonly entries = new Map<string, Entry>();
  private readonly settings: TransportSettings;
  private readonly timeoutMs: number;
  private closing = false;
  private readonly shutdown = new AbortController();

  constructor(private readonly options: McpClientPoolOptions) {
    this.timeoutMs = options.callTimeoutMs ?? 60_000;
    const stateDir = options.stateDir ?? path.join(os.tmpdir(), `summon-mcp-${process.pid}`);
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    // The servers' private folders do not outlive this process, however it ends.
    if (options.stateDir === undefined) removeAtExit({ folder: stateDir });
    this.settings = {
      launcher: options.launcher,
      stateDir,
      egress: {
        resolve: options.resolve ?? systemResolver,
        forbiddenPorts: options.forbiddenPorts ?? [],
        logger: options.logger,
      },
      searchPath: options.searchPath ?? process.env.PATH ?? '',
      limits: options.limits ?? {},
      maxMessageBytes: options.maxMessageBytes ?? 8 * 1024 ** 2,
    };
  }

  async tools(
    context: McpCallContext,
    servers: readonly McpServerSpec[],
    signal: AbortSignal,
  ): Promise<{ tools: McpToolInfo[]; unavailable: McpUnavailable[] }> {
    const listed = await Promise.all(servers.map((server) => this.serverTools(context, server, signal)));
    const tools: McpToolInfo[] = [];
    const unavailable: McpUnavailable[] = [];
    const names = new Set<string>();
    for (const result of listed) {
      unavailable.push(...result.unavailable);
      for (const tool of result.tools) {
        // E1: two tools whose names became the same one (`a.b`, `a/b`): the first is kept.
        if (names.has(tool.qualifiedName)) {
          unavailable.push({
            server: tool.server,
            reason: `The MCP server ${tool.server}'s tool "${tool.tool}" was left out: its name becomes ${tool.qualifiedName}, as another tool's does.`,
          });
          continue;
        }
        names.add(tool.qualifiedName);
        tools.push(tool);
      }
    }
    return { tools, unavailable };
  }

  async call(
    context: McpCallContext,
    server: McpServerSpec,
    tool: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<ToolOutcome> {
    const name = qualifiedToolName(server.name, tool);
    const expanded = this.expand(server);
    if (!expanded.ok) return { ok: false, output: expanded.reason };
    const redact = redactor(expandedSecrets(server, expanded.spec));
    let connection: McpConnection | undefined;
    try {
      connection = await this.connection(context, expanded.spec, signal);
      const result = await connection.callTool(tool, args, { timeoutMs: this.timeoutMs, signal });
      return resultOutcome(result, name, {
        maxChars: this.options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
        redact,
      });
    } catch (error) {
      const sentence = this.sentence(error, { server: server.name, name, signal, connection, redact });
      const stderr = redact(connection?.opened.stderr() ?? '');
      this.options.logger.warn({ server: server.name, tool, failure: sentence, stderr }, 'mcp call failed');
      return { ok: false, output: sentence };
    } finally {
      if (connection !== undefined) this.touch(context, expanded.spec, connection);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.shutdown.abort();
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map((entry) =>
        entry.connection.then((connection) => connection.close()).catch(() => undefined),
      ),
    );
  }

  private async serverTools(
    context: McpCallContext,
    server: McpServerSpec,
    signal: AbortSignal,
  ): Promise<{ tools: McpToolInfo[]; unavailable: McpUnavailable[] }> {
    const expanded = this.expand(server);
    if (!expanded.ok) return { tools: [], unavailable: [{ server: server.name, reason: expanded.reason }] };
    const redact = redactor(expandedSecrets(server, expanded.spec));
    let connection: McpConnection | undefined;
    try {
      connection = await this.connection(context, expanded.spec, signal);
      const tools = await connection.listTools({ timeoutMs: this.timeoutMs, signal });
      return toolInfos(server.name, tools, redact);
    } catch (error) {
      const reason = this.sentence(error, { server: server.name, signal, connection, redact });
      const stderr = redact(connection?.opened.stderr() ?? '');
      this.options.logger.warn({ server: server.name, failure: reason, stderr }, 'mcp server unavailable');
      return { tools: [], unavailable: [{ server: server.name, reason }] };
    } finally {
      if (connection !== undefined) this.touch(context, expanded.spec, connection);
    }
  }

  private expand(server: McpServerSpec): { ok: true; spec: McpServerSpec } | { ok: false; reason: string } {
    let expanded: ReturnType<ExpandSpec>;
    try {
      expanded = this.options.expand(server);
    } catch (error) {
      // A stored entry whose references cannot be read: a sentence, never a throw.
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    if (expanded.ok) return expanded;
    // E2: a missing variable is named; nothing is sent with an empty credential.
    const names = expanded.missing.join(', ');
    return {
      ok: false,
      reason: `The MCP server ${server.name} needs ${names}, which ${expanded.missing.length === 1 ? 'is' : 'are'} not set in Summon's environment.`,
    };
  }

  /** The pooled connection for this workspace and spec, connected now when there is none. */
  private async connection(
    context: McpCallContext,
    spec: McpServerSpec,
    signal: AbortSignal,
  ): Promise<McpConnection> {
    if (this.closing) throw new Error('Summon is shutting down.');
    const key = poolKey(context, spec);
    const known = this.entries.get(key);
    if (known !== undefined) {
      const connection = await untilAborted(known.connection, signal).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
      if (connection !== undefined && !connection.closed) return connection;
      if (this.entries.get(key) === known) this.entries.delete(key);
    }
    // A connection is shared: its start is bounded by its timeout and Summon's shutdown, not
    // by the turn that happened to ask first (which only stops waiting for it).
    const entry: Entry = {
      connection: (async () => {
        const opened = await openTransport(spec, this.settings, this.shutdown.signal);
        return McpConnection.open(opened, {
          timeoutMs: this.timeoutMs,
          signal: this.shutdown.signal,
          onClosed: () => {
            // E3: a server that exited is started again by the next call.
            if (this.entries.get(key) === entry) this.entries.delete(key);
          },
        });
      })(),
    };
    this.entries.set(key, entry);
    entry.connection.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return untilAborted(entry.connection, signal);
  }

  private touch(context: McpCallContext, spec: McpServerSpec, connection: McpConnection): void {
    if (connection.closed) return;
    const key = poolKey(context, spec);
    connection.idleAfter(this.options.idleMs ?? 5 * 60_000, () => {
      const entry = this.entries.get(key);
      void entry?.connection.then((pooled) => {
        if (pooled === connection && this.entries.get(key) === entry) this.entries.delete(key);
      });
    });
  }

  private sentence(
    error: unknown,
    at: {
      server: string;
      name?: string;
      signal: AbortSignal;
      connection: McpConnection | undefined;
      redact: (text: string) => string;
    },
  ): string {
    if (error instanceof ServerStartError)
      return `The MCP server ${at.server} could not start: ${error.message}.`;
    if (error instanceof SandboxUnavailableError)
      return `The MCP server ${at.server} could not start: ${error.message}`;
    return failureSentence(error, {
      server: at.server,
      ...(at.name === undefined ? {} : { name: at.name }),
      timeoutMs: this.timeoutMs,
      aborted: at.signal.aborted,
      ended: at.connection?.opened.ended(),
      redact: at.redact,
    });
  }
}

/** One connection per workspace and expanded spec (a new credential is a new connection). */
function poolKey(context: McpCallContext, spec: McpServerSpec): string {
  const hash = createHash('sha256').update(stableJson(spec)).digest('hex');
  return `${context.workspaceId}:${hash}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
