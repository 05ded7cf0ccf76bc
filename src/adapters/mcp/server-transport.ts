import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpHttpServerSpec, McpServerSpec, McpStdioServerSpec } from '../../core/model/mcp/mcp-server';
import type { ProcessLauncher } from '../sandbox/process-launcher';
import type { SandboxLimits } from '../sandbox/sandbox-policy';
import { ProcessTransport, type ProcessTransportEnd } from './process-transport';
import { type ServerEgressOptions, startServerEgress } from './server-egress';
import { stdioServerPolicy } from './stdio-server-policy';

export interface TransportSettings {
  launcher: ProcessLauncher;
  /** Where each stdio server's private folder is made (removed with its connection). */
  stateDir: string;
  egress: ServerEgressOptions;
  searchPath: string;
  limits: SandboxLimits;
  /** E3: the largest single answer read from a server. */
  maxMessageBytes: number;
}

/** A server's transport, what ended it, and what it holds besides (its folder, its proxy). */
export interface OpenedTransport {
  transport: Transport;
  ended(): ProcessTransportEnd | undefined;
  /** The end of a stdio server's stderr, for the log (redact it first). */
  stderr(): string;
  release(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** A sentence-bearing failure to prepare a server (its program missing, the sandbox refused). */
export class ServerStartError extends Error {}

/** E3: a stdio server under the sandbox, or E1: a streamable HTTP server with its headers. */
export async function openTransport(
  spec: McpServerSpec,
  settings: TransportSettings,
  signal: AbortSignal,
): Promise<OpenedTransport> {
  return spec.transport === 'stdio' ? openStdio(spec, settings, signal) : openHttp(spec, settings);
}

async function openStdio(
  spec: McpStdioServerSpec,
  settings: TransportSettings,
  signal: AbortSignal,
): Promise<OpenedTransport> {
  const privateDir = await mkdtemp(path.join(settings.stateDir, `${spec.name}-`));
  const egress = await startServerEgress(spec.name, spec.allowedDomains, settings.egress).catch(
    async (error: unknown) => {
      await rm(privateDir, { recursive: true, force: true });
      throw error;
    },
  );
  const release = async () => {
    await egress.close().catch(() => undefined);
    await rm(privateDir, { recursive: true, force: true });
  };
  const planned = stdioServerPolicy(spec, {
    privateDir,
    egress,
    searchPath: settings.searchPath,
    limits: settings.limits,
  });
  if (!planned.ok) {
    await release();
    throw new ServerStartError(planned.problem);
  }
  const transport = new ProcessTransport(
    () => settings.launcher.launch(planned.policy, planned.argv, signal),
    { maxMessageBytes: settings.maxMessageBytes, killGraceMs: 1000 },
  );
  return { transport, ended: () => transport.ended, stderr: () => transport.stderr, release };
}

function openHttp(spec: McpHttpServerSpec, settings: TransportSettings): OpenedTransport {
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    throw new ServerStartError('its url is not a URL');
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // X2: Summon's own ports (its HTTP server, git gateway, database, Redis) are no MCP server.
  if (LOOPBACK.has(url.hostname) && settings.egress.forbiddenPorts.includes(port)) {
    throw new ServerStartError(`its url points at port ${port} of this host, one of Summon's own`);
  }
  let oversized: ProcessTransportEnd | undefined;
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { ...spec.headers } },
    fetch: cappedFetch(settings.maxMessageBytes, () => {
      oversized = { kind: 'oversized', limitBytes: settings.maxMessageBytes };
    }),
  });
  // E3: an oversized answer concerns the request it came with; the connection goes on.
  const ended = () => {
    const seen = oversized;
    oversized = undefined;
    return seen;
  };
  return { transport, ended, stderr: () => '', release: async () => undefined };
}

/** E3: each response's body is read up to `maxBytes`; past that it fails (and `onOver` is told). */
function cappedFetch(maxBytes: number, onOver: () => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.body === null) return response;
    let seen = 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen <= maxBytes) return controller.enqueue(chunk);
          onOver();
          controller.error(new Error(`the answer is larger than ${maxBytes} bytes`));
        },
      }),
    );
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
