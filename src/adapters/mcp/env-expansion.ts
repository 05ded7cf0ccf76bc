import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { ExpandSpec } from './mcp-client-pool';

const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * E2: `${env:NAME}` in every string of a spec, from `env` (Summon's environment), at the moment
 * Summon connects. A variable that is not set (or empty) is named, never sent empty.
 * (Stands in for the core's `expandSpec(spec, env)` until the workspace file's side lands: the
 * same shape, so `mcp-runtime.ts` takes that one instead and this file goes.)
 */
export function expandFromEnv(env: Readonly<Record<string, string | undefined>>): ExpandSpec {
  return (spec) => {
    const missing = new Set<string>();
    const expand = (value: string) =>
      value.replace(REFERENCE, (_, name: string) => {
        const found = env[name];
        if (found === undefined || found === '') missing.add(name);
        return found ?? '';
      });
    const values = (record: Readonly<Record<string, string>>) =>
      Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value)]));
    const expanded: McpServerSpec =
      spec.transport === 'stdio'
        ? {
            ...spec,
            command: expand(spec.command),
            args: spec.args.map(expand),
            env: values(spec.env),
            readOnlyPaths: spec.readOnlyPaths.map(expand),
            ...(spec.cwd === undefined ? {} : { cwd: expand(spec.cwd) }),
          }
        : { ...spec, url: expand(spec.url), headers: values(spec.headers) };
    return missing.size > 0 ? { ok: false, missing: [...missing].sort() } : { ok: true, spec: expanded };
  };
}
