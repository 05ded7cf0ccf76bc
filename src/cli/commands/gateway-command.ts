import type { Command } from 'commander';
import { refLabel, updateKind } from '../../core/git/ref-updates';
import type { GitPushRecord } from '../../core/model/git-gateway';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

const refs = (push: GitPushRecord) =>
  push.updates
    .map((u) => `${refLabel(u.ref)}${updateKind(u) === 'delete' ? ' (delete)' : ''} ${u.newId.slice(0, 7)}`)
    .join(', ');
const when = (date: Date) => date.toISOString().replace('T', ' ').slice(0, 19);

export function registerGatewayCommand(program: Command, context: CliContext): void {
  const gateway = program.command('gateway').description('the git gateway (G3, G5)');
  gateway
    .command('status')
    .description('pushes waiting for approval, and the gateway’s recent decisions')
    .option('-n, --limit <count>', 'how many recent decisions', '20')
    .action((options: { limit: string }) =>
      withRuntime(context, async ({ store, config }) => {
        const limit = Number.parseInt(options.limit, 10);
        if (!Number.isInteger(limit) || limit < 1)
          throw new Error(`--limit must be a positive number, got "${options.limit}"`);
        const { waiting, recent, approvals } = await store.transaction(async (tx) => {
          const waiting = await tx.gitPushes.listWaiting();
          const approvals = new Map<string, Date>();
          for (const push of waiting) {
            const approval = push.approvalId === null ? null : await tx.approvals.findById(push.approvalId);
            if (approval !== null) approvals.set(push.id, approval.expiresAt);
          }
          return { waiting, recent: await tx.gitPushes.listRecent(limit), approvals };
        });
        const configured =
          config.github.token !== undefined || config.github.appId !== undefined
            ? `upstream ${config.github.gitUrl}`
            : 'not configured (set GITHUB_TOKEN, or GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY)';
        const lines = [`Git gateway: ${configured}`, '', `Waiting for approval: ${waiting.length}`];
        if (waiting.length > 0) {
          lines.push(
            formatTable(
              ['since', 'repo', 'refs', 'approval', 'expires'],
              waiting.map((p) => [
                when(p.createdAt),
                p.repo,
                refs(p),
                p.approvalId ?? '-',
                approvals.has(p.id) ? when(approvals.get(p.id) as Date) : '-',
              ]),
            ),
          );
        }
        lines.push('', `Recent decisions: ${recent.length}`);
        if (recent.length > 0) {
          lines.push(
            formatTable(
              ['when', 'repo', 'refs', 'decision', 'outcome', 'reason'],
              recent.map((p) => [when(p.createdAt), p.repo, refs(p), p.decision, p.status, p.reason]),
            ),
          );
        }
        context.output.out(lines.join('\n'));
      }),
    );
}
