import type { Command } from 'commander';
import { renderWorkspaceJsonSchema } from '../../core/workspace/workspace-json-schema';
import type { CliContext } from '../cli-context';

export function registerSchemaCommand(program: Command, context: CliContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the workspace file (the same as schema/workspace.schema.json)')
    .action(() => context.output.out(renderWorkspaceJsonSchema()));
}
