import type { Command } from 'commander';
import { type CliContext, withRuntime } from '../cli-context';

export function registerWorkspaceCommand(program: Command, context: CliContext): void {
  const workspace = program.command('workspace').description('create and inspect workspaces');
  workspace
    .command('create <slug>')
    .description(
      'create a workspace with its five seeded agents (running it again re-seeds, never duplicates)',
    )
    .option('--name <name>', 'display name (default: the slug)')
    .action((slug: string, options: { name?: string }) =>
      withRuntime(context, async ({ workspaces, config }) => {
        const result = await workspaces.create(slug, options.name);
        const seeded = result.seededAgents.length > 0 ? `; seeded ${result.seededAgents.join(', ')}` : '';
        context.output.out(
          `${result.created ? 'created' : 'already exists:'} workspace ${result.workspace.slug}${seeded}\n` +
            `files: ${config.dataDir}/workspaces/${result.workspace.slug}`,
        );
      }),
    );
}
