import type { RunEgress } from './egress';
import type { ToolAuthorization } from './tool-authorization';

export type { ToolAuthorization };

/**
 * The tools a turn may use (A9, M23). The engine builds one `TurnTools` per run from the
 * space mode and the agent; runners only consume it: the built-in loop offers `specs` to the
 * model and executes calls through `call`; a CLI agent whose tools run outside Summon asks
 * `authorize` from its pre-tool-use hook.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the tool's input object. */
  inputSchema: Record<string, unknown>;
  /**
   * E1, E2: `mcp` for a tool of a declared MCP server (named `<server>__<tool>`): the only
   * tools Summon's MCP endpoint offers a CLI agent. Absent for the built-in tools.
   */
  source?: 'mcp';
  /** A16: a `read` tool changes nothing, so the loop may run a round's read calls together; absent = `write`. */
  access?: 'read' | 'write';
}

export interface ToolCall {
  /** The model's (or the CLI agent's) id for this call. */
  callId: string;
  name: string;
  input: unknown;
}

/** What the model sees as the tool's result. A failure is a sentence, never a thrown error. */
export interface ToolOutcome {
  ok: boolean;
  output: string;
}

/**
 * A9: a completion contract. When the model stops and `unmet()` returns a nudge, the loop
 * sends the nudge as one more user message and lets the model continue once; if the
 * contract is still unmet, the turn fails with `failure`.
 */
export interface CompletionContract {
  /** The nudge to send, or undefined when the contract is met. */
  unmet(): string | undefined;
  /** The sentence the turn fails with when the nudge did not help. */
  failure: string;
}

export interface TurnTools {
  /** A9: the tools this turn may use. A forbidden tool is absent here, not merely refused. */
  readonly specs: readonly ToolSpec[];
  /**
   * Runs one call after its guardrail check (G1, G2); an `ask` opens an approval (G4) and
   * waits for the decision. Resolves with `ok: false` and the reason on refusal or failure.
   */
  call(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  /**
   * For tools that run outside Summon (a CLI agent's own Bash, through the pre-tool-use
   * hook): the guardrail decision for a call about to be made; `ask` waits for approval.
   */
  authorize(call: ToolCall, signal: AbortSignal): Promise<ToolAuthorization>;
  /** A9: what a turn must have done before it may end (plan mode: `submit_plan`). */
  readonly completion?: CompletionContract;
  /** X2: the run's filtering egress proxy, for a CLI agent's sandboxed process. */
  readonly egress?: RunEgress;
}

/** A turn with no tools (a runner that cannot use them, or a test that needs none). */
export const NO_TOOLS: TurnTools = {
  specs: [],
  call: async (call) => ({ ok: false, output: `There is no tool named ${call.name} in this turn.` }),
  authorize: async () => ({ allowed: false, reason: 'This turn has no tools.' }),
};
