import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../core/errors';
import { hasChanges } from '../../core/workspace/change-report';
import { parseWorkspaceFile } from '../../core/workspace/parse-workspace-file';
import { type CliContext, withRuntime } from '../cli-context';

export function registerApplyCommand(program: Command, context: CliContext): void {
  program
    .command('apply <file>')
    .description(
      'create or update a workspace from a YAML file, in one transaction (see schema/workspace.schema.json)',
    )
    .action(async (file: string) => {
      const source = path.resolve(context.cwd, file);
      const text = await readFile(source, 'utf8').catch((cause: unknown) => {
        throw new ValidationError(`cannot read ${file}: ${(cause as Error).message}`, [], { cause });
      });
      const parsed = parseWorkspaceFile(text, file);
      await withRuntime(context, async ({ workspaces }) => {
        const report = await workspaces.apply(parsed);
        if (!hasChanges(report)) {
          context.output.out(`workspace ${parsed.workspace}: no change`);
          return;
        }
        const lines = [
          ...report.created.map((item) => `  + ${item}`),
          ...report.updated.map((item) => `  ~ ${item}`),
        ];
        context.output.out(`workspace ${parsed.workspace}: applied\n${lines.join('\n')}`);
      });
    });
}
