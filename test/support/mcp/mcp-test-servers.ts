import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { McpHttpServerSpec, McpStdioServerSpec } from '../../../src/core/model/mcp/mcp-server';

/** E3: the test MCP server over stdio (test-tools.cjs): run with `node`, under the sandbox. */
export const STDIO_SERVER = path.join(__dirname, 'stdio-server.cjs');
const HTTP_SERVER = path.join(__dirname, 'http-server.cjs');

/** A stdio entry for the test server, as the workspace file would declare it. */
export function stdioSpec(overrides: Partial<McpStdioServerSpec> = {}): McpStdioServerSpec {
  return {
    name: 'tracker',
    transport: 'stdio',
    command: 'node',
    args: [STDIO_SERVER],
    env: {},
    allowedDomains: [],
    readOnlyPaths: [],
    ...overrides,
  };
}

export interface HttpMcpServer {
  url: string;
  /** The Authorization values of the requests it refused (null: none sent). */
  refused: (string | null)[];
  spec(headers: Record<string, string>, name?: string): McpHttpServerSpec;
  close(): Promise<void>;
}

/** E1, E2: the test MCP server over streamable HTTP, in a process of its own, on 127.0.0.1:0. */
export async function startHttpMcpServer(authorization: string): Promise<HttpMcpServer> {
  const child: ChildProcess = spawn(process.execPath, [HTTP_SERVER], {
    env: { PATH: process.env.PATH ?? '', MCP_EXPECT_AUTHORIZATION: authorization },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const refused: (string | null)[] = [];
  let buffered = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the HTTP MCP server exited (${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let index = buffered.indexOf('\n');
      while (index >= 0) {
        const line = buffered.slice(0, index);
        buffered = buffered.slice(index + 1);
        const listening = /^listening (\d+)$/.exec(line);
        if (listening !== null) resolve(Number(listening[1]));
        const refusal = /^refused (.*)$/.exec(line);
        if (refusal !== null) refused.push(JSON.parse(refusal[1] ?? 'null') as string | null);
        index = buffered.indexOf('\n');
      }
    });
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    refused,
    spec: (headers, name = 'remote') => ({ name, transport: 'http', url, headers }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** E2: `${env:NAME}`, as a workspace file writes a reference to Summon's environment. */
export const envRef = (name: string): string => `$\{env:${name}}`;
