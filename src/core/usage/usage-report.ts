import { NotFoundError } from '../errors';
import type { UsageGrouping, UsageReportRow } from '../model/usage/usage-report';
import type { Store } from '../ports/store';
import { formatUsd } from './budget';
import { totalTokens } from './token-usage';

/** O3: a workspace's usage since a moment, by agent, space or member (`summon usage`, App Home). */
export async function usageReport(
  store: Store,
  slug: string,
  options: { by: UsageGrouping; since: Date },
): Promise<UsageReportRow[]> {
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(slug));
  if (workspace === null)
    throw new NotFoundError(`no workspace "${slug}"; create it with \`summon workspace create ${slug}\``);
  return store.inWorkspace(workspace.id, (tx) => tx.usage.report(workspace.id, options));
}

export const USAGE_HEADERS = ['RUNS', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'TOKENS', 'COST'];

/** The cells of one row (after its name): counts with thousands separators, cost or `-` (no price). */
export const usageCells = (row: UsageReportRow): string[] => [
  String(row.runs),
  ...[
    row.usage.inputTokens,
    row.usage.outputTokens,
    row.usage.cacheReadTokens,
    row.usage.cacheWriteTokens,
    totalTokens(row.usage),
  ].map((n) => n.toLocaleString('en-US')),
  row.costUsd === null ? '-' : formatUsd(row.costUsd),
];
