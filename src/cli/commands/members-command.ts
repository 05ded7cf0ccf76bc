import type { Command } from 'commander';
import { issueInvite } from '../../core/members/member-invites';
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
}
