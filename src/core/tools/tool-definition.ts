import { z } from 'zod';
import type { GuardrailAction } from '../model/guardrail';
import type { McpCallSubject } from '../model/mcp/mcp-call';
import type { AgentRecord, SkillRecord, SpaceRecord } from '../model/records';
import type { SpaceMode } from '../model/space';
import type { RunEgress } from '../ports/egress';
import type { ToolOutcome, ToolSpec } from '../ports/turn-tools';

/** What a tool may know about the turn that calls it. */
export interface ToolScope {
  runId: string;
  workspaceId: string;
  agent: AgentRecord;
  space: SpaceRecord;
  /** The agent's working directory: file tools and bash are confined to it. */
  workingDir: string;
  /** A5: the skills linked into the agent's folder. */
  skills: readonly SkillRecord[];
  /** G3: added to the environment of the processes the tools start (the per-run git configuration). */
  env?: Readonly<Record<string, string>>;
  /** M9: directories the working directory links into (the space's checkouts): file tools may follow those links. */
  linkedRoots?: readonly string[];
  /** A7: told of every file a tool writes (path relative to `workingDir`). */
  noteWrite?: (path: string) => Promise<void>;
  /** X2: the run's filtering egress proxy (present when commands run in the sandbox). */
  egress?: RunEgress;
  /** Per-turn memory shared by the turn's tools (e.g. plan mode's submitted plan). */
  state: Map<string, unknown>;
}

/**
 * One tool of the built-in harness (A9). Adding a tool is one file exporting a definition
 * plus one line in the registry (`src/adapters/tools/tool-registry.ts`).
 */
export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  /** Parses the model's input; the JSON Schema offered to the model is derived from it. */
  input: z.ZodType<Input>;
  /**
   * E1: the JSON Schema offered to the model as given, instead of the one derived from `input`
   * (an MCP server's tool: its own schema reaches the model unchanged; the server checks it).
   */
  inputJsonSchema?: Record<string, unknown>;
  /** A9: `read` tools exist in every mode; `write` tools only in `chat`. */
  access: 'read' | 'write';
  /** The space modes that offer this tool (still filtered by `access`). */
  modes: readonly SpaceMode[];
  /** G1: the guardrail actions a call stands for; empty = not gated. Pure. */
  classify(input: Input): readonly GuardrailAction[];
  /** E4: an MCP tool's call (server, tool, arguments, read-only), for the guard and its card. */
  mcp?: (input: Input) => McpCallSubject;
  /** Runs the call; failures are sentences in the outcome, never thrown. */
  run(input: Input, scope: ToolScope, signal: AbortSignal): Promise<ToolOutcome>;
}

export const ALL_MODES: readonly SpaceMode[] = ['chat', 'plan', 'review'];

/**
 * The JSON Schema a model sees for a tool's input (draft 2020-12, without the `$schema` tag).
 * E2: a tool with an MCP call subject is marked `mcp` (what Summon's endpoint offers CLI agents).
 */
export function toolSpec(definition: AnyToolDefinition): ToolSpec {
  const source = definition.mcp === undefined ? {} : { source: 'mcp' as const };
  if (definition.inputJsonSchema !== undefined) {
    // A16, E4: no `access` — an MCP call may ask for approval (a turn waits on one approval at a
    // time, T2), so the loop runs it alone, never beside a round's other reads.
    return {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputJsonSchema,
      ...source,
    };
  }
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: jsonSchemaOf(definition.input as z.ZodType),
    access: definition.access,
    ...source,
  };
}

/**
 * T3: a tool's JSON Schema is derived once per input schema (zod schemas are immutable), not
 * on every turn that offers the tool; frozen, since every turn shares it.
 */
const derived = new WeakMap<z.ZodType, Record<string, unknown>>();

function jsonSchemaOf(input: z.ZodType): Record<string, unknown> {
  const known = derived.get(input);
  if (known !== undefined) return known;
  const { $schema: _drop, ...schema } = z.toJSONSchema(input) as Record<string, unknown>;
  const frozen = deepFreeze(schema);
  derived.set(input, frozen);
  return frozen;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Builds a definition with its input type inferred from the schema. */
export const defineTool = <Input>(definition: ToolDefinition<Input>): ToolDefinition<Input> => definition;

/** A definition of any input type, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of many input types.
export type AnyToolDefinition = ToolDefinition<any>;
