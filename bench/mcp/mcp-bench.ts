import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expandFromEnv } from '../../src/adapters/mcp/env-expansion';
import { McpClientPool } from '../../src/adapters/mcp/mcp-client-pool';
import { createProcessLauncher } from '../../src/adapters/sandbox/create-process-launcher';
import { guardCall } from '../../src/core/engine/tool-kit/guard-call';
import type { WaitsDeps } from '../../src/core/engine/waits/waits-deps';
import type { McpStdioServerSpec } from '../../src/core/model/mcp/mcp-server';
import { silentLogger } from '../../src/core/ports/logger';
import { mcpToolDefinition } from '../../src/core/tools/mcp-tool';
import type { ToolScope } from '../../src/core/tools/tool-definition';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { openDatabase } from '../../src/storage/database';

/** The SDK-built test server the integration tests use: `search` is annotated read-only. */
const SERVER = path.join(__dirname, '../../test/support/mcp/stdio-server.cjs');
const ARGS = { query: 'flaky' };

/**
 * `npm run bench -- mcp [calls]`: the latency Summon adds to one gated, allowed MCP call on a
 * stdio server. Measured path: the guard's decision (`guardCall`: the workspace's rules read
 * in a transaction on PGlite, an `allow` rule for action `mcp`), the built-in harness's MCP
 * tool (`mcpToolDefinition`), Summon's pool (`McpClientPool.call`: expansion, redaction, the
 * result's bounds) and the server under the sandbox (SUMMON_SANDBOX's mode). Baseline: the
 * SDK's `Client` over its own `StdioClientTransport` calling the same server program, not
 * sandboxed. Both connections are opened first; calls alternate one by one after a warm-up.
 * Not measured: the model's request, the turn's checkpoints and status card. Goal: ≤ 5 ms
 * added at p50.
 */
export async function runMcpBench(calls: number, print: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'summon-bench-mcp-'));
  const database = await openDatabase({ dbDir: path.join(dir, 'db'), logger: silentLogger });
  const pool = new McpClientPool({
    expand: expandFromEnv({}),
    launcher: createProcessLauncher({ processConcurrency: 4 }),
    logger: silentLogger,
    stateDir: path.join(dir, 'state'),
  });
  const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  try {
    await database.migrate();
    const store = database.store;
    const local = await store.transaction((tx) => ensureLocalChat(tx));
    const workspaceId = local.workspace.id;
    const agent = await store.inWorkspace(workspaceId, async (tx) => {
      await tx.guardrails.upsert(workspaceId, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'mcp',
        decision: 'allow',
      });
      return (await tx.agents.list(workspaceId))[0];
    });
    if (agent === undefined) throw new Error('the local workspace has no agent');
    const spec: McpStdioServerSpec = {
      name: 'tracker',
      transport: 'stdio',
      command: process.execPath,
      args: [SERVER],
      env: {},
      allowedDomains: [],
      readOnlyPaths: [],
    };
    const signal = new AbortController().signal;
    const context = { workspaceId, memberId: local.member.id };
    const listed = await pool.tools(context, [spec], signal);
    const info = listed.tools.find((t) => t.tool === 'search');
    if (info === undefined)
      throw new Error(`the server listed no search tool: ${JSON.stringify(listed.unavailable)}`);
    const tool = mcpToolDefinition(info, (args, callSignal) =>
      pool.call(context, spec, info.tool, args, callSignal),
    );
    const scope = {
      runId: 'bench',
      workspaceId,
      agent,
      space: local.space,
      workingDir: dir,
      skills: [],
    } as unknown as ToolScope;
    // Only the store and the logger are used on an `allow` (no approval is opened or waited on).
    const guardDeps = { store, logger: silentLogger } as unknown as WaitsDeps;
    const throughSummon = async () => {
      const decided = await guardCall(
        guardDeps,
        {
          runId: 'bench',
          agent,
          space: local.space,
          actions: ['mcp'],
          summary: 'tracker__search',
          mcp: { server: 'tracker', tool: 'search', arguments: ARGS, readOnly: true },
        },
        signal,
      );
      if (!decided.allowed) throw new Error(`the guard refused: ${decided.reason}`);
      const outcome = await tool.run(ARGS, scope, signal);
      if (!outcome.ok) throw new Error(`through Summon: ${outcome.output}`);
    };
    await direct.connect(
      new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'ignore' }),
    );
    const directly = async () => {
      const result = await direct.callTool({ name: 'search', arguments: ARGS });
      if (result.isError === true) throw new Error('directly: the call failed');
    };
    const warmUp = Math.min(50, Math.max(5, Math.floor(calls / 10)));
    for (let i = 0; i < warmUp; i++) {
      await throughSummon();
      await directly();
    }
    const summonMs: number[] = [];
    const directMs: number[] = [];
    for (let i = 0; i < calls; i++) {
      // Interleaved, alternating which goes first, so drift hits both alike.
      const order = i % 2 === 0 ? [throughSummon, directly] : [directly, throughSummon];
      for (const run of order) {
        const started = performance.now();
        await run();
        (run === throughSummon ? summonMs : directMs).push(performance.now() - started);
      }
    }
    report(calls, summonMs, directMs, print);
  } finally {
    await direct.close().catch(() => undefined);
    await pool.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(calls: number, summonMs: number[], directMs: number[], print: (line: string) => void): void {
  const s = { p50: percentile(summonMs, 50), p99: percentile(summonMs, 99) };
  const d = { p50: percentile(directMs, 50), p99: percentile(directMs, 99) };
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  print(`MCP call on a stdio server, ${calls} calls each, interleaved (tool: search, read-only)`);
  print(`  through Summon (guard allow + pool + sandboxed server): p50 ${ms(s.p50)}  p99 ${ms(s.p99)}`);
  print(`  SDK Client directly (same server, not sandboxed):      p50 ${ms(d.p50)}  p99 ${ms(d.p99)}`);
  print(`  added by Summon: p50 ${ms(s.p50 - d.p50)}  p99 ${ms(s.p99 - d.p99)}  (goal: ≤ 5 ms at p50)`);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
