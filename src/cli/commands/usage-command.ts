import type { Command } from 'commander';
import { ValidationError } from '../../core/errors';
import { USAGE_GROUPINGS, type UsageGrouping } from '../../core/model/usage/usage-report';
import { PRICES_AS_OF } from '../../core/usage/price-table';
import { totalTokens } from '../../core/usage/token-usage';
import { USAGE_HEADERS, usageCells, usageReport } from '../../core/usage/usage-report';
import { parseSince } from '../../core/usage/usage-since';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

interface UsageOptions {
  workspace: string;
  by: string;
  since?: string;
  json?: boolean;
}

/** O3: `summon usage`: tokens and cost of a workspace's runs, by agent, space or member. */
export function registerUsageCommand(program: Command, context: CliContext): void {
  program
    .command('usage')
    .description('token usage and cost of the runs of a workspace, by agent, space or member')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--by <grouping>', 'agent, space or member', 'agent')
    .option(
      '--since <date|Nd>',
      'a date (2026-11-01) or days back (7d); default: the start of this month (UTC)',
    )
    .option('--json', 'print JSON')
    .action((options: UsageOptions) => {
      const by = grouping(options.by);
      const since = parseSince(options.since, new Date());
      return withRuntime(context, async ({ store }) => {
        const rows = await usageReport(store, options.workspace, { by, since });
        if (options.json) {
          context.output.out(JSON.stringify({ since: since.toISOString(), by, rows }, null, 2));
          return;
        }
        const header = `usage of workspace ${options.workspace} since ${since.toISOString()} by ${by}`;
        if (rows.length === 0) {
          context.output.out(`${header}: no runs`);
          return;
        }
        const total = rows.reduce((sum, row) => sum + totalTokens(row.usage), 0);
        const cost = rows.reduce((sum, row) => sum + (row.costUsd ?? 0), 0);
        context.output.out(
          [
            `${header}`,
            formatTable(
              [by.toUpperCase(), ...USAGE_HEADERS],
              rows.map((row) => [row.name, ...usageCells(row)]),
            ),
            `total ${total.toLocaleString('en-US')} tokens, $${cost.toFixed(2)} (list prices of ${PRICES_AS_OF}; "-": no price known for the model)`,
          ].join('\n'),
        );
      });
    });
}

function grouping(value: string): UsageGrouping {
  const found = USAGE_GROUPINGS.find((g) => g === value);
  if (found === undefined)
    throw new ValidationError(`--by must be agent, space or member, got "${value}"`, [
      { path: 'by', message: 'must be agent, space or member' },
    ]);
  return found;
}
