import type { Command } from 'commander';
import { SecretBox } from '../../adapters/mcp-oauth/secret-box';
import { webhookSecretContext } from '../../app/routine-webhooks';
import { NotFoundError, ValidationError } from '../../core/errors';
import { OPERATOR_ACTOR } from '../../core/model/audit/audit-event';
import type { Store } from '../../core/ports/store';
import {
  changeRoutine,
  findRoutine,
  lastResultInWords,
  listRoutines,
  type RoutineChange,
} from '../../core/routines/routine-control';
import { newWebhookSecret } from '../../core/routines/webhook-signature';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

interface WorkspaceOption {
  workspace: string;
}

/** W5: `summon routines`: a workspace's routines, their next time and last result; changes. */
export function registerRoutinesCommand(program: Command, context: CliContext): void {
  const routines = program
    .command('routines')
    .description('list, pause, resume, run and delete routines (W1–W5)');
  routines
    .command('list')
    .description("a workspace's routines (or one space's) with their next time and last result")
    .argument('[space]', 'only this space')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .action((space: string | undefined, options: WorkspaceOption) =>
      withRuntime(context, async ({ store }) => {
        const rows = await inWorkspace(store, options.workspace, (tx, id) =>
          listRoutines(tx, id, space ?? null),
        );
        if (rows.length === 0) {
          context.output.out(
            `no routines in ${space === undefined ? `workspace ${options.workspace}` : `space ${space}`}`,
          );
          return;
        }
        context.output.out(
          formatTable(
            ['ROUTINE', 'AGENT', 'TRIGGER', 'NEXT', 'LAST'],
            rows.map((r) => [
              `${r.space}/${r.name}`,
              r.agent,
              r.trigger,
              r.paused ? 'paused' : (r.nextDueAt?.toISOString() ?? '-'),
              lastResultInWords(r.last),
            ]),
            80,
          ),
        );
      }),
    );
  const change = (name: RoutineChange, description: string) =>
    routines
      .command(name)
      .description(description)
      .argument('<space/routine>', 'the routine, as <space>/<routine>')
      .option('-w, --workspace <slug>', 'workspace', 'default')
      .action((ref: string, options: WorkspaceOption) =>
        withRuntime(context, async ({ store }) => {
          const said = await inWorkspace(store, options.workspace, async (tx, id) =>
            changeRoutine(tx, await findRoutine(tx, id, ref), name, new Date(), {
              actor: OPERATOR_ACTOR,
              where: 'cli',
            }),
          );
          context.output.out(said);
        }),
      );
  change('pause', 'pause a routine: it fires nothing until resumed');
  change('resume', 'resume a routine; its next time counts from now');
  change('run', 'fire a routine now, once, on a process that runs turns');
  change('delete', 'delete a routine and its history (a workspace file that lists it creates it again)');
  routines
    .command('secret')
    .description("make a webhook routine's signing secret, printed once (a new one replaces the old)")
    .argument('<space/routine>', 'the routine, as <space>/<routine>')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .action((ref: string, options: WorkspaceOption) =>
      withRuntime(context, async ({ store, config }) => {
        const key = config.secretKey;
        if (key === undefined)
          throw new ValidationError('webhook secrets are stored encrypted: set SUMMON_SECRET_KEY first', [
            { path: 'SUMMON_SECRET_KEY', message: 'is not set (make one with `openssl rand -base64 32`)' },
          ]);
        const { secret, routine } = await inWorkspace(store, options.workspace, async (tx, id) => {
          const found = await findRoutine(tx, id, ref);
          if (found.trigger.kind !== 'webhook')
            throw new ValidationError(`Routine ${found.space}/${found.name} is not a webhook routine`, [
              { path: ref, message: 'has no `webhook: true` trigger' },
            ]);
          const made = newWebhookSecret();
          // W5: stored sealed; only this output ever shows it.
          await tx.routines.setWebhookSecret(
            found.id,
            new SecretBox(key).seal(made, webhookSecretContext(found.id)),
          );
          return { secret: made, routine: found };
        });
        context.output.out(
          [
            `Webhook secret of routine ${routine.space}/${routine.name} (shown once; a new one replaces it):`,
            secret,
            `POST ${config.publicUrl ?? 'http://<summon>'}/hooks/${options.workspace}/${routine.space}/${routine.name}`,
            'with X-Summon-Timestamp, X-Summon-Delivery and X-Summon-Signature-256: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">',
          ].join('\n'),
        );
      }),
    );
}

async function inWorkspace<T>(
  store: Store,
  slug: string,
  work: (tx: Parameters<Parameters<Store['transaction']>[0]>[0], workspaceId: string) => Promise<T>,
): Promise<T> {
  return store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug(slug);
    if (workspace === null) throw new NotFoundError(`There is no workspace "${slug}".`);
    return work(tx, workspace.id);
  });
}
