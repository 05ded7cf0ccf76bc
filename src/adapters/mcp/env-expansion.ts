import { type Environment, expandSpec } from '../../core/mcp/expand-spec';
import type { ExpandSpec } from './mcp-client-pool';

/**
 * E2: `${env:NAME}` in every string of a spec, from `env` (Summon's environment), at the moment
 * Summon connects: the core's `expandSpec`, so the file's escapes (`$${`) read the same here. A
 * variable that is not set (or empty) is named, never sent empty.
 */
export const expandFromEnv =
  (env: Environment): ExpandSpec =>
  (spec) =>
    expandSpec(spec, env);
