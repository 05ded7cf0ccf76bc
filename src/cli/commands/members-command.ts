import type { Command } from 'commander';
import { issueMemberToken, revokeMemberTokens } from '../../core/mcp-service/member-tokens';
import { issueInvite } from '../../core/members/member-invites';
import { listMembers, viaText } from '../../core/members/member-list';
import type { MemberRole } from '../../core/model/member';
import { type CliContext, withRuntime } from '../cli-context';

export function registerMembersCommand(program: Command, context: CliContext): void {
  const members = program.command('members').description('people of a workspace');
  members
    .command('invite <nickname>')
    .description(
      'issue a one-time code (valid 24 h) that links a Slack or Discord account to this member (created if new) with `/summon link-account <code>`',
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option(
      '-r, --role <role>',
      'owner, admin, approver, member or viewer (default: member, or the current role)',
    )
    .action((nickname: string, options: { workspace: string; role?: string }) =>
      withRuntime(context, async ({ store }) => {
        const invite = await issueInvite(store, {
          workspaceSlug: options.workspace,
          nickname,
          ...(options.role === undefined ? {} : { role: options.role as MemberRole }),
          now: new Date(),
        });
        context.output.out(
          [
            `${invite.created ? 'Created' : 'Invited'} @${invite.nickname} (${invite.role}).`,
            `One-time code: ${invite.code} (valid until ${invite.expiresAt.toISOString()}; shown only now).`,
            `They send in Slack or Discord: /summon link-account ${invite.code}`,
          ].join('\n'),
        );
      }),
    );
  registerTokenCommand(members, context);
  registerListCommand(members, context);
}

/** P24: `summon members list`: each person's role and how they got it (the entry, or a group). */
function registerListCommand(members: Command, context: CliContext): void {
  members
    .command('list')
    .description(
      "list the workspace's members: role, and how they got it (their entry, or a group by name and id)",
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--json', 'print JSON')
    .action((options: { workspace: string; json?: boolean }) =>
      withRuntime(context, async ({ store }) => {
        const listed = await listMembers(store, options.workspace);
        if (options.json) {
          context.output.out(JSON.stringify(listed, null, 2));
          return;
        }
        if (listed.length === 0) {
          context.output.out(`No members in ${options.workspace}.`);
          return;
        }
        const width = Math.max(...listed.map((m) => m.nickname.length)) + 1;
        const lines = listed.map((m) => `@${m.nickname.padEnd(width)} ${m.role.padEnd(8)} ${viaText(m.via)}`);
        context.output.out(lines.join('\n'));
      }),
    );
}

/** E6: `summon members token <nickname>`: a personal token for Summon's `/mcp`, shown once. */
function registerTokenCommand(members: Command, context: CliContext): void {
  members
    .command('token <nickname>')
    .description(
      "print a new personal token for Summon's MCP endpoint (/mcp), shown only now and stored hashed; --revoke revokes all of the member's tokens",
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--json', 'print JSON')
    .option('--revoke', 'revoke every token of this member instead of making one')
    .action((nickname: string, options: { workspace: string; json?: boolean; revoke?: boolean }) =>
      withRuntime(context, async ({ store }) => {
        const request = { workspaceSlug: options.workspace, nickname };
        if (options.revoke) {
          const { revoked } = await revokeMemberTokens(store, { ...request, now: new Date() });
          context.output.out(
            options.json
              ? JSON.stringify({ nickname, revoked })
              : `Revoked ${revoked} token(s) of @${nickname.replace(/^@/, '')}.`,
          );
          return;
        }
        const issued = await issueMemberToken(store, request);
        context.output.out(
          options.json
            ? JSON.stringify({ token: issued.token })
            : [
                `A personal token for @${issued.nickname} (${issued.role}), shown only now:`,
                issued.token,
                'Use it as `Authorization: Bearer <token>` on /mcp (docs/mcp.md); `--revoke` revokes it.',
              ].join('\n'),
        );
      }),
    );
}
