import type { Command } from 'commander';
import { ConsoleSessions, LINK_TTL_MS } from '../../app/console/console-sessions';
import { NotFoundError } from '../../core/errors';
import { systemClock } from '../../core/ports/clock';
import type { Store } from '../../core/ports/store';
import { type CliContext, withRuntime } from '../cli-context';

interface LinkOptions {
  workspace: string;
  member?: string;
}

/**
 * O5: `summon console link` prints a one-time link that signs a member in to the web console
 * (by default the workspace's owner: the local chat's person, who has no Slack or Discord
 * account to sign in with). Used once, within 15 minutes.
 */
export function registerConsoleCommand(program: Command, context: CliContext): void {
  const command = program.command('console').description('the web console (O5)');
  command
    .command('link')
    .description('print a one-time link that signs a member in to the web console (default: the owner)')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('-m, --member <nickname>', 'the member to sign in (default: the workspace’s owner)')
    .action((options: LinkOptions) =>
      withRuntime(context, async (runtime) => {
        const nickname = options.member ?? (await ownerOf(runtime.store, options.workspace));
        const sessions = new ConsoleSessions({
          store: runtime.store,
          clock: systemClock,
          logger: runtime.logger,
        });
        const { token, member } = await sessions.issueLink(options.workspace, nickname);
        const base = (runtime.config.publicUrl ?? `http://127.0.0.1:${runtime.config.port}`).replace(
          /\/+$/,
          '',
        );
        context.output.out(
          `Open this link to sign in to the console as @${member.nickname} (${member.role}); it works once, within ${LINK_TTL_MS / 60_000} minutes:\n${base}/console/link?token=${token}`,
        );
      }),
    );
}

async function ownerOf(store: Store, slug: string): Promise<string> {
  return store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug(slug);
    if (workspace === null) throw new NotFoundError(`There is no workspace "${slug}".`);
    const owner = (await tx.members.list(workspace.id)).find((m) => m.role === 'owner');
    if (owner === undefined)
      throw new NotFoundError(`Workspace "${slug}" has no owner; name a member with --member.`);
    return owner.nickname;
  });
}
