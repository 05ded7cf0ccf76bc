import { DEFAULT_AUDIT_RETENTION_DAYS } from '../core/audit/audit-log';

/** O4: how long the audit log keeps its events. */
export interface AuditConfig {
  /** `SUMMON_AUDIT_RETENTION_DAYS`: events older than this many days are deleted (default 365). */
  auditRetentionDays: number;
}

export function parseAuditConfig(env: NodeJS.ProcessEnv): AuditConfig {
  const text = env.SUMMON_AUDIT_RETENTION_DAYS?.trim();
  if (text === undefined || text === '') return { auditRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS };
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1) {
    throw new Error(`SUMMON_AUDIT_RETENTION_DAYS must be a whole number of days, at least 1, got "${text}"`);
  }
  return { auditRetentionDays: days };
}
