import type { Command } from 'commander';
import { NotFoundError } from '../../core/errors';
import type { Store } from '../../core/ports/store';
import {
  changeRoutine,
  findRoutine,
  lastResultInWords,
  listRoutines,
  type RoutineChange,
} from '../../core/routines/routine-control';
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
            changeRoutine(tx, await findRoutine(tx, id, ref), name, new Date()),
          );
          context.output.out(said);
        }),
      );
  change('pause', 'pause a routine: it fires nothing until resumed');
  change('resume', 'resume a routine; its next time counts from now');
  change('run', 'fire a routine now, once, on a process that runs turns');
  change('delete', 'delete a routine and its history (a workspace file that lists it creates it again)');
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
