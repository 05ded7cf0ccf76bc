import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { type CliContext, withRuntime } from '../cli-context';

export function registerExportCommand(program: Command, context: CliContext): void {
  program
    .command('export <workspace>')
    .description('write a workspace in the `summon apply` format (applying it back changes nothing)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action((slug: string, options: { output?: string }) =>
      withRuntime(context, async ({ workspaces }) => {
        const file = await workspaces.export(slug);
        const yaml = stringify(file, { lineWidth: 0 });
        if (options.output === undefined) context.output.out(yaml);
        else await writeFile(path.resolve(context.cwd, options.output), yaml, 'utf8');
      }),
    );
}
