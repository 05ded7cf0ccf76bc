import { ValidationError } from '../errors';
import type { McpServerSpec } from '../model/mcp/mcp-server';
import { parseText } from './env-references';

/**
 * E2: a declared server's references resolved against Summon's environment, only where Summon
 * itself connects. A variable that is unset or empty is missing: the server is not started or
 * called with an empty credential in its place. Pure.
 */
export type ExpandedSpec = { ok: true; spec: McpServerSpec } | { ok: false; missing: string[] };

export type Environment = Readonly<Record<string, string | undefined>>;

/** E2: every variable the spec refers to, each once, sorted. */
export function referencedVariables(spec: McpServerSpec): string[] {
  const names = new Set<string>();
  mapStrings(spec, (text) => {
    for (const part of parsed(spec, text)) if ('variable' in part) names.add(part.variable);
    return text;
  });
  return [...names].sort();
}

/** E2: the spec with every reference replaced by its variable's value, or the variables missing. */
export function expandSpec(spec: McpServerSpec, env: Environment): ExpandedSpec {
  const missing = referencedVariables(spec).filter((name) => (env[name] ?? '') === '');
  if (missing.length > 0) return { ok: false, missing };
  const expanded = mapStrings(spec, (text) =>
    parsed(spec, text)
      .map((part) => ('literal' in part ? part.literal : (env[part.variable] ?? '')))
      .join(''),
  );
  return { ok: true, spec: expanded };
}

/** E2: each variable the spec refers to, sorted, and whether it is set (never its value). */
export function variableStatus(spec: McpServerSpec, env: Environment): { name: string; set: boolean }[] {
  return referencedVariables(spec).map((name) => ({ name, set: (env[name] ?? '') !== '' }));
}

function parsed(spec: McpServerSpec, text: string) {
  const result = parseText(text);
  // A stored spec passed the workspace file's schema; one that did not is refused here whole.
  if (!result.ok)
    throw new ValidationError(`MCP server "${spec.name}" has a malformed reference: ${result.problem}`);
  return result.parts;
}

/** E2: the strings that may hold references: never the name, the transport or the domains. */
function mapStrings(spec: McpServerSpec, map: (text: string) => string): McpServerSpec {
  const values = (record: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
  if (spec.transport === 'http') return { ...spec, url: map(spec.url), headers: values(spec.headers) };
  return {
    ...spec,
    command: map(spec.command),
    args: spec.args.map(map),
    env: values(spec.env),
    readOnlyPaths: spec.readOnlyPaths.map(map),
    ...(spec.cwd === undefined ? {} : { cwd: map(spec.cwd) }),
  };
}
