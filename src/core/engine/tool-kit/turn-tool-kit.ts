import type { GuardrailAction } from '../../model/guardrail';
import type { RunEgress } from '../../ports/egress';
import type { Logger } from '../../ports/logger';
import type { ToolAuthorization, ToolCall, ToolOutcome, TurnTools } from '../../ports/turn-tools';
import type { ResumedWait, TurnToolsScope } from '../../ports/turn-tools-factory';
import { summarizeCall } from '../../tools/call-summary';
import { classifyCommand, pushesOnlyToNamedRemotes } from '../../tools/classify-command';
import { planContract } from '../../tools/submit-plan-tool';
import { type AnyToolDefinition, type ToolScope, toolSpec } from '../../tools/tool-definition';
import { toolSurface } from '../../tools/tool-surface';
import { type AgentToolTimings, agentTools, DEFAULT_AGENT_TOOL_TIMINGS } from '../agent-tools';
import { type GuardedCall, guardCall } from './guard-call';
import { createHostAuthorizer, createRunReachCheck } from './host-authorizer';
import { mcpTurnTools } from './mcp-turn-tools';
import { type McpCallRecorder, mcpCallRecorder } from './record-mcp-call';
import type { ToolKitDeps, TurnToolKit } from './tool-kit-deps';

/** Decides a call's guarded actions before it runs (G1, G2, G4); `durable`: its checkpoint's approval (T2). */
type Guard = (
  summary: string,
  actions: readonly GuardrailAction[],
  signal: AbortSignal,
  durable?: Pick<GuardedCall, 'checkpointed' | 'approvalId' | 'mcp'>,
) => Promise<ToolAuthorization>;

/** X2, G5: which actions are decided elsewhere (the egress proxy, the git gateway). */
type Gates = { gatewayGatesPush: boolean; proxyGatesNetwork: boolean };

/**
 * The built-in harness's tool kit (A9): the surface from the space mode, every call parsed,
 * classified into guardrail actions (G1) and decided (G2, G4) before it runs, and plan
 * mode's completion contract. `authorize` decides calls a CLI agent makes itself.
 */
export function createToolKit(
  definitions: readonly AnyToolDefinition[],
  options: { agentTools?: Partial<AgentToolTimings> } = {},
): TurnToolKit {
  const timings = { ...DEFAULT_AGENT_TOOL_TIMINGS, ...options.agentTools };
  return (deps) => async (turn) => {
    // M23, N13: the agent-to-agent tools need the engine, so they are built per turn. T2, A9:
    // `awaiting` hands the call a resumed turn was waiting in what it waited on.
    const awaiting = { current: undefined as ResumedWait | undefined };
    const surface = toolSurface(turn.space.mode, [
      ...definitions,
      ...agentTools({ deps, turn, timings, resumed: awaiting }),
      // E1, A9: the MCP servers' tools (plan and review modes keep the read-only ones).
      ...(await mcpTurnTools(deps, turn)),
    ]);
    const guard = guardFor(deps, turn);
    // X2: in the sandbox the run's egress proxy decides `network` for each host it is asked to
    // reach (an `ask` is a card naming the host, through the same guard as tool calls).
    const egress = deps.egress?.forRun(
      turn.runId,
      createHostAuthorizer(deps, {
        runId: turn.runId,
        agent: turn.agent,
        space: turn.space,
        ask: (summary, signal) => guard(summary, ['network'], signal),
      }),
      // X2: a run that can reach no host gets no proxy and no forward at all.
      createRunReachCheck(deps, { agent: turn.agent, space: turn.space }),
    );
    const gates = {
      gatewayGatesPush: turn.workspace?.gatewayGatesPush === true,
      proxyGatesNetwork: egress !== undefined,
    };
    const scope = scopeOf(turn, egress);
    const log = deps.logger.child({ component: 'tools', runId: turn.runId });
    return {
      specs: surface.map((definition) => toolSpec(definition)),
      call: callerFor(turn, {
        surface,
        gates,
        scope,
        guard,
        log,
        awaiting,
        // O4: every MCP call of the run is recorded and counted.
        mcpCalls: mcpCallRecorder(deps, { runId: turn.runId, workspaceId: turn.agent.workspaceId }),
      }),
      authorize: (request, signal) => authorizeExternal(surface, gates, guard, request, signal),
      ...(turn.space.mode === 'plan' ? { completion: planContract(scope, turn.agent.name) } : {}),
      ...(egress === undefined ? {} : { egress }),
    };
  };
}

/** The turn's guard: A12, a call waiting on an approval is blocked, so the silence watch is held meanwhile. */
function guardFor(deps: ToolKitDeps, turn: TurnToolsScope): Guard {
  return async (summary, actions, signal, durable = {}) => {
    turn.onWaiting?.(true);
    try {
      return await guardCall(
        deps,
        { runId: turn.runId, agent: turn.agent, space: turn.space, actions, summary, ...durable },
        signal,
      );
    } finally {
      turn.onWaiting?.(false);
    }
  };
}

/** What every tool of the turn runs with: its run, agent, space, folder and sandbox. */
function scopeOf(turn: TurnToolsScope, egress: RunEgress | undefined): ToolScope {
  return {
    runId: turn.runId,
    workspaceId: turn.agent.workspaceId,
    agent: turn.agent,
    space: turn.space,
    workingDir: turn.workingDir,
    skills: turn.skills,
    state: new Map(),
    ...(egress === undefined ? {} : { egress }),
    ...(turn.workspace == null
      ? {}
      : {
          env: turn.workspace.env,
          linkedRoots: turn.workspace.linkedRoots,
          noteWrite: turn.workspace.noteWrite,
        }),
  };
}

/**
 * The built-in loop's calls: parsed, guarded, run. T2: the call a resumed turn was waiting in
 * waits again on the same approval, question or run (each once).
 */
function callerFor(
  turn: TurnToolsScope,
  kit: {
    surface: readonly AnyToolDefinition[];
    gates: Gates;
    scope: ToolScope;
    guard: Guard;
    log: Logger;
    awaiting: { current: ResumedWait | undefined };
    mcpCalls: McpCallRecorder;
  },
): TurnTools['call'] {
  const { surface, gates, scope, guard, log, awaiting, mcpCalls } = kit;
  let resumedApproval = turn.resumedApproval;
  let resumedWait = turn.resumedWait;
  return async (request: ToolCall, signal: AbortSignal): Promise<ToolOutcome> => {
    const definition = surface.find((d) => d.name === request.name);
    if (definition === undefined) {
      return { ok: false, output: `There is no tool named ${request.name} in this turn.` };
    }
    const parsed = definition.input.safeParse(request.input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
      return { ok: false, output: `Invalid input for ${request.name}: ${issues.join('; ')}.` };
    }
    const actions = gatedHere(definition.classify(parsed.data), gates, request.input);
    // T2: the call a resumed turn was waiting on waits on the same approval (once).
    const resumed = resumedApproval?.callId === request.callId ? resumedApproval.approvalId : undefined;
    if (resumed !== undefined) resumedApproval = undefined;
    // E4: an MCP call's server, tool and arguments decide and bind its approval.
    const mcp = definition.mcp?.(parsed.data);
    let verdict: ToolAuthorization['verdict'];
    if (actions.length > 0) {
      // T2: the call's approval is recorded on the checkpoint, so a restart waits on it again.
      const decision = await guard(`${request.name}: ${summarizeCall(request)}`, actions, signal, {
        checkpointed: true,
        ...(resumed === undefined ? {} : { approvalId: resumed }),
        ...(mcp === undefined ? {} : { mcp }),
      });
      // O4: a refused MCP call is recorded too; one whose approval is still pending (its
      // worker handed the turn back, T2) is not decided yet, and is recorded where it is.
      if (!decision.allowed && mcp !== undefined && decision.verdict !== undefined)
        await mcpCalls.refused(mcp, decision.verdict);
      if (!decision.allowed) return { ok: false, output: decision.reason };
      verdict = decision.verdict;
    }
    log.info({ tool: request.name, actions }, 'tool call');
    // T2, A9: the call a resumed turn was waiting in waits on the same question or run (once).
    awaiting.current = resumedWait?.callId === request.callId ? resumedWait : undefined;
    if (awaiting.current !== undefined) resumedWait = undefined;
    try {
      const run = () => definition.run(parsed.data, scope, signal);
      // O4: an MCP call is timed, recorded and counted with its outcome.
      return await (mcp === undefined ? run() : mcpCalls.ran(mcp, verdict, run));
    } catch (error) {
      log.warn({ err: error, tool: request.name }, 'tool failed');
      return {
        ok: false,
        output: `${request.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      awaiting.current = undefined;
    }
  };
}

/** A call a CLI agent makes itself, decided before it runs: a `command` is classified as a shell line. */
async function authorizeExternal(
  surface: readonly AnyToolDefinition[],
  gates: Gates,
  guard: Guard,
  request: ToolCall,
  signal: AbortSignal,
): Promise<ToolAuthorization> {
  const definition = surface.find((d) => d.name === request.name);
  const parsed = definition?.input.safeParse(request.input);
  const actions = gatedHere(
    definition !== undefined && parsed?.success === true
      ? definition.classify(parsed.data)
      : externalActions(request.input),
    gates,
    request.input,
  );
  if (actions.length === 0) return { allowed: true };
  return guard(`${request.name}: ${summarizeCall(request)}`, actions, signal);
}

function externalActions(input: unknown): readonly GuardrailAction[] {
  const command = (input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? classifyCommand(command) : [];
}

/**
 * X2: one decision per host. When the run's commands are sandboxed, `curl` and the like are
 * not gated by their text: the egress proxy decides the host they actually reach. A tool that
 * Summon itself sends over the network (an agent of a paired relay, N13) stays gated here.
 *
 * G5: one decision per push. When the run's git goes through the gateway, `git push` to a
 * named remote passes the tool's guard and the gateway applies `push_to_remote` at the moment
 * of the push, with the exact refs on the card (asking here too would ask twice, and about
 * less). Without a gateway, or for a push naming a URL or path, the tool-level guard stays.
 */
export function gatedHere(
  actions: readonly GuardrailAction[],
  gates: Gates,
  input: unknown,
): readonly GuardrailAction[] {
  const command = (input as { command?: unknown } | null)?.command;
  const toGateway =
    gates.gatewayGatesPush && (typeof command !== 'string' || pushesOnlyToNamedRemotes(command));
  // X2: only a command's network goes through the proxy; a call to another relay (N13) does not.
  const proxied = gates.proxyGatesNetwork && typeof command === 'string';
  return actions.filter(
    (action) => !(toGateway && action === 'push_to_remote') && !(proxied && action === 'network'),
  );
}
