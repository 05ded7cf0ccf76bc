import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProcessSlots } from '../../core/ports/process-slots';
import type { ToolOutcome, TurnTools } from '../../core/ports/turn-tools';
import { endpointSpecs, notOfferedSentence } from './endpoint-tools';

/** What one run's endpoint serves, and what a call waits on (T1, A12). */
export interface EndpointRun {
  runId: string;
  tools: TurnTools;
  /** Aborted when the run ends (or its endpoint is closed): calls still waiting end with it. */
  signal: AbortSignal;
  /** T1: the run gives its process slot back while a call waits (an approval, a slow server). */
  slots?: ProcessSlots;
  /** Calls under way (the CLI agent is blocked on them: not silence, A12). */
  pending: { count: number };
  /** A call came back (the runner's silence watchdog hears it). */
  onSettled?: () => void;
}

/** The endpoint's name and version, as `initialize` reports them. */
const SERVER_INFO = { name: 'summon', version: '1.0.0' };

/**
 * E2, E4: a one-request MCP server for `run` (the endpoint is stateless: every POST gets a
 * fresh server and transport). `tools/list` is the run's MCP tools; `tools/call` is
 * `TurnTools.call` for a tool among them (so the guardrails and approval cards apply exactly
 * as for a built-in turn, and Summon's own MCP client makes the call); any other name is
 * refused here with a sentence and never forwarded.
 */
export function runMcpServer(run: EndpointRun): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(
    ListToolsRequestSchema,
    (): ListToolsResult => ({
      tools: endpointSpecs(run.tools).map((spec) => ({
        name: spec.name,
        description: spec.description,
        inputSchema: { ...spec.inputSchema, type: 'object' },
      })),
    }),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const offered = endpointSpecs(run.tools);
    if (!offered.some((spec) => spec.name === name))
      return toResult({ ok: false, output: notOfferedSentence(name, offered) });
    const signal = AbortSignal.any([run.signal, extra.signal]);
    const call = { callId: `mcp-endpoint-${randomUUID()}`, name, input: request.params.arguments ?? {} };
    run.pending.count += 1;
    try {
      const made = () => run.tools.call(call, signal);
      const outcome = await untilAborted(
        run.slots === undefined ? made() : run.slots.suspendWhile(run.runId, made, signal),
        signal,
      );
      return toResult(signal.aborted ? { ok: false, output: 'The run was stopped.' } : outcome);
    } catch (error) {
      return toResult({
        ok: false,
        output: `Summon could not make this call (${error instanceof Error ? error.message : String(error)}).`,
      });
    } finally {
      run.pending.count -= 1;
      run.onSettled?.();
    }
  });
  return server;
}

/** A call nobody waits for any more (the run ended, the agent hung up) is not waited on here either. */
function untilAborted(outcome: Promise<ToolOutcome>, signal: AbortSignal): Promise<ToolOutcome> {
  const stopped: ToolOutcome = { ok: false, output: 'The run was stopped.' };
  if (signal.aborted) return Promise.resolve(stopped);
  return Promise.race([
    outcome,
    new Promise<ToolOutcome>((resolve) =>
      signal.addEventListener('abort', () => resolve(stopped), { once: true }),
    ),
  ]);
}

/** A9: what the agent reads: the outcome's text; a refusal or failure is an error result. */
function toResult(outcome: ToolOutcome): CallToolResult {
  return { content: [{ type: 'text', text: outcome.output }], ...(outcome.ok ? {} : { isError: true }) };
}
