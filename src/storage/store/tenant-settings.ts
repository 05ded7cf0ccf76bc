import { PreparedStatement } from './prepared-statement';

/**
 * A2: a tenant transaction's settings, its first statement: its role and its workspace. Both are
 * local to the transaction, so the pooled connection goes back clean; `set_config('role', …,
 * true)` is `SET LOCAL ROLE`, with the same permission check. Prepared (T3: every tenant
 * transaction sends it).
 */
export const TENANT_SETTINGS = new PreparedStatement(
  ['text'],
  "SELECT set_config('role', 'summon_tenant', true), set_config('summon.workspace_id', $1, true)",
);
