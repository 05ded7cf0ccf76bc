import type { Command } from 'commander';
import { McpOAuth } from '../../adapters/mcp-oauth/mcp-oauth';
import type { RevocationOutcome } from '../../adapters/mcp-oauth/token-revocation';
import type { Runtime } from '../../app/runtime';
import { NotFoundError, ValidationError } from '../../core/errors';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import { systemClock } from '../../core/ports/clock';
import type { McpCallContext } from '../../core/ports/mcp-clients';
import { type CliContext, withRuntime } from '../cli-context';

/**
 * The workspace's declared MCP servers, with their `${env:…}` values expanded (the store and
 * the expansion belong to `summon mcp`'s own file: it hands this in).
 */
export type McpServersOf = (runtime: Runtime, workspaceId: string) => Promise<readonly McpServerSpec[]>;

interface AuthOptions {
  workspace: string;
  member?: string;
}

/**
 * E5: `summon mcp login <server>` prints the link that authorizes a server that needs OAuth
 * (for the workspace, or with `--member` for that member's own tokens); `summon mcp logout
 * <server>` deletes those tokens and asks the server's authorization server to revoke them.
 */
export function addMcpAuthCommands(mcp: Command, context: CliContext, serversOf: McpServersOf): void {
  mcp
    .command('login <server>')
    .description(
      "print the link that authorizes a server that needs OAuth (the workspace's tokens, or a member's)",
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option(
      '-m, --member <nickname>',
      'the member whose own tokens these are (servers with `tokens: member`)',
    )
    .action((name: string, options: AuthOptions) =>
      withRuntime(context, async (runtime) => {
        const { call, server, whose } = await resolve(runtime, serversOf, name, options);
        const link = await oauthOf(runtime).authorizationLink(call, server);
        context.output.out(
          `Open this link to authorize ${server.name} for ${whose} (valid 15 minutes):\n${link}`,
        );
      }),
    );
  mcp
    .command('logout <server>')
    .description('delete the OAuth tokens of a server and revoke them where its authorization server allows')
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option(
      '-m, --member <nickname>',
      'the member whose own tokens these are (servers with `tokens: member`)',
    )
    .action((name: string, options: AuthOptions) =>
      withRuntime(context, async (runtime) => {
        const { call, server, whose } = await resolve(runtime, serversOf, name, options);
        const { deleted, revocation } = await oauthOf(runtime).logout(call, server);
        context.output.out(
          deleted
            ? `Deleted ${whose}'s tokens for ${server.name}; ${revoked(server.name, revocation)}`
            : `There were no tokens of ${whose} for ${server.name}.`,
        );
      }),
    );
}

/** E5: the workspace, the server (one that needs OAuth) and whose tokens, from the arguments. */
async function resolve(
  runtime: Runtime,
  serversOf: McpServersOf,
  name: string,
  options: AuthOptions,
): Promise<{ call: McpCallContext; server: McpServerSpec; whose: string }> {
  const workspace = await runtime.store.transaction((tx) => tx.workspaces.findBySlug(options.workspace));
  if (workspace === null) throw new NotFoundError(`There is no workspace "${options.workspace}".`);
  const servers = await serversOf(runtime, workspace.id);
  const server = servers.find((s) => s.name === name);
  if (server === undefined) {
    const names = servers.map((s) => s.name).join(', ') || 'none';
    throw new NotFoundError(
      `Workspace ${workspace.slug} declares no MCP server "${name}" (it declares: ${names}).`,
    );
  }
  if (!needsOAuth(server))
    throw new ValidationError(`${name} does not use OAuth (its entry has no \`auth: oauth\`).`);
  if (server.auth.tokens === 'workspace') {
    if (options.member !== undefined) {
      throw new ValidationError(
        `${name}'s tokens are the workspace's (\`tokens: workspace\`): leave out --member.`,
      );
    }
    return {
      call: { workspaceId: workspace.id, memberId: null },
      server,
      whose: `workspace ${workspace.slug}`,
    };
  }
  if (options.member === undefined) {
    throw new ValidationError(
      `${name} uses each member's own tokens (\`tokens: member\`): name the member with --member <nickname>.`,
    );
  }
  const nickname = options.member.replace(/^@/, '');
  const member = await runtime.store.transaction((tx) => tx.members.findByNickname(workspace.id, nickname));
  if (member === null) throw new NotFoundError(`Workspace ${workspace.slug} has no member @${nickname}.`);
  return { call: { workspaceId: workspace.id, memberId: member.id }, server, whose: `@${member.nickname}` };
}

const oauthOf = (runtime: Runtime): McpOAuth =>
  new McpOAuth({
    store: runtime.store,
    clock: systemClock,
    logger: runtime.logger,
    settings: { secretKey: runtime.config.secretKey, publicUrl: runtime.config.publicUrl },
  });

function revoked(server: string, outcome: RevocationOutcome): string {
  if (outcome.kind === 'revoked') return 'its authorization server revoked them.';
  if (outcome.kind === 'unsupported') {
    return `${server}'s authorization server offers no revocation: remove Summon's access there to end the grant.`;
  }
  return `${server}'s authorization server could not revoke them (${outcome.reason}): remove Summon's access there to end the grant.`;
}
