import type { Command } from 'commander';
import { type CliContext, withRuntime } from '../cli-context';

export function registerDbCommand(program: Command, context: CliContext): void {
  const db = program.command('db').description('manage the database schema');
  db.command('migrate')
    .description('run the migrations that have not run yet (also done at every start)')
    .action(() =>
      withRuntime(
        context,
        async ({ database }) => {
          const ran = await database.migrate();
          context.output.out(
            ran.length === 0
              ? `${database.kind}: schema is up to date`
              : `${database.kind}: ran ${ran.join(', ')}`,
          );
        },
        { migrate: false },
      ),
    );
  db.command('revert')
    .description('undo the most recent migration')
    .action(() =>
      withRuntime(
        context,
        async ({ database }) => {
          const reverted = await database.revert();
          context.output.out(reverted === null ? 'nothing to revert' : `reverted ${reverted}`);
        },
        { migrate: false },
      ),
    );
}
