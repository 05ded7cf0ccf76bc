import { mcpCalled, runActor } from '../../audit/audit-entries';
import type { McpCallSubject } from '../../model/mcp/mcp-call';
import { mcpToolName } from '../../model/mcp/mcp-call';
import type { McpCallOutcome, McpCallRecord } from '../../model/mcp/mcp-call-record';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { Metrics } from '../../ports/metrics';
import type { Store } from '../../ports/store';
import type { McpGuardVerdict } from '../../ports/tool-authorization';
import type { ToolOutcome } from '../../ports/turn-tools';

/** What recording an MCP call uses of the engine: its rows, its clock, its counts. */
export interface RecordMcpCallDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
}

export interface McpCallFacts {
  runId: string;
  workspaceId: string;
  call: Pick<McpCallSubject, 'server' | 'tool'>;
  /** How `guardCall` decided it (its `verdict`). */
  verdict: McpGuardVerdict;
  /** From the request to the server to its answer; 0 for a call that never ran. */
  durationMs: number;
  outcome: McpCallOutcome;
}

/**
 * E4, O4: one MCP call, recorded (run, `<server>__<tool>`, decision, approver, duration,
 * outcome) and counted (`summon_mcp_calls_total`, the duration histogram). The record is the
 * call's trace, not its condition: a store that fails here is logged, and the call's answer
 * still reaches the model.
 */
export async function recordMcpCall(
  deps: RecordMcpCallDeps,
  facts: McpCallFacts,
): Promise<McpCallRecord | null> {
  const tool = mcpToolName(facts.call.server, facts.call.tool);
  const { decision, approvedByMemberId } = facts.verdict;
  deps.metrics?.mcpCall(
    { server: facts.call.server, tool, decision, outcome: facts.outcome },
    Math.max(0, facts.durationMs) / 1000,
  );
  try {
    return await deps.store.inWorkspace(facts.workspaceId, async (tx) => {
      const record = await tx.mcpCalls.insert(facts.workspaceId, {
        runId: facts.runId,
        server: facts.call.server,
        tool,
        decision,
        approvedByMemberId,
        durationMs: Math.max(0, facts.durationMs),
        outcome: facts.outcome,
        at: deps.clock.now(),
      });
      // O4: the call is in the audit log too, with its record.
      await tx.audit.append(facts.workspaceId, mcpCalled(record, await runActor(tx, facts.runId)));
      return record;
    });
  } catch (error) {
    deps.logger.warn({ err: error, runId: facts.runId, tool }, 'MCP call not recorded');
    return null;
  }
}

/**
 * O4: an MCP call `guardCall` let through, run, then recorded with its duration and outcome
 * (`ok`; `error` for an error answer or a throw, which is thrown on). What the tool kit's MCP
 * branch wraps around each allowed call; a refused one is `recordMcpCall` with outcome
 * `refused` and duration 0.
 */
export async function runRecordedMcpCall(
  deps: RecordMcpCallDeps,
  facts: Omit<McpCallFacts, 'durationMs' | 'outcome'>,
  run: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const started = deps.clock.now().getTime();
  const elapsed = () => deps.clock.now().getTime() - started;
  try {
    const outcome = await run();
    await recordMcpCall(deps, { ...facts, durationMs: elapsed(), outcome: outcome.ok ? 'ok' : 'error' });
    return outcome;
  } catch (error) {
    await recordMcpCall(deps, { ...facts, durationMs: elapsed(), outcome: 'error' });
    throw error;
  }
}

/** O4: how a turn's tool kit records its MCP calls: one refused, or one run. */
export interface McpCallRecorder {
  refused(call: McpCallSubject, verdict: McpGuardVerdict | undefined): Promise<void>;
  ran(
    call: McpCallSubject,
    verdict: McpGuardVerdict | undefined,
    run: () => Promise<ToolOutcome>,
  ): Promise<ToolOutcome>;
}

/**
 * O4: the recorder of one run's MCP calls. A call the guard did not decide (no action to
 * gate) counts as `allow`.
 */
export function mcpCallRecorder(
  deps: RecordMcpCallDeps,
  run: { runId: string; workspaceId: string },
): McpCallRecorder {
  const facts = (call: McpCallSubject, verdict: McpGuardVerdict | undefined) => ({
    ...run,
    call,
    verdict: verdict ?? { decision: 'allow' as const, approvedByMemberId: null },
  });
  return {
    refused: async (call, verdict) => {
      await recordMcpCall(deps, { ...facts(call, verdict), durationMs: 0, outcome: 'refused' });
    },
    ran: (call, verdict, work) => runRecordedMcpCall(deps, facts(call, verdict), work),
  };
}
