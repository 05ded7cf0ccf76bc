import type { SignedInAccount } from '../../adapters/console-auth/platform-sign-in';
import { AppError } from '../../core/errors';
import type { MemberRecord } from '../../core/model/records';
import type { Store } from '../../core/ports/store';

/**
 * O5, P8: the member a signed-in platform account is. Membership authorizes, not the sign-in: a
 * Slack account counts only in the Summon workspace its team is bound to; a Discord account in
 * the first workspace (bound to a Discord server) that has it as a member. The refusal says
 * what to do, as chat's does.
 */
export async function memberOf(store: Store, account: SignedInAccount): Promise<MemberRecord> {
  return store.transaction(async (tx) => {
    if (account.platform === 'slack') {
      const binding = await tx.platformBindings.find('slack', account.teamId);
      if (binding === null)
        throw new AppError(
          `The Slack workspace you signed in with (${account.teamId}) is not linked to this Summon; sign in with the Slack workspace Summon’s bot is in.`,
          'forbidden',
        );
      const member = await tx.members.findByPlatformUser(binding.workspaceId, 'slack', account.userId);
      if (member === null) throw notMember('Slack');
      return member;
    }
    for (const workspace of await tx.workspaces.list()) {
      const bound = (await tx.platformBindings.listForWorkspace(workspace.id)).some(
        (b) => b.platform === 'discord',
      );
      if (!bound) continue;
      const member = await tx.members.findByPlatformUser(workspace.id, 'discord', account.userId);
      if (member !== null) return member;
    }
    throw notMember('Discord');
  });
}

const notMember = (platform: string): AppError =>
  new AppError(
    `Your ${platform} account is not a member of a Summon workspace. Ask an admin for a one-time code (\`summon members invite\`) and send \`/summon link-account <code>\` in ${platform}, then sign in again.`,
    'forbidden',
  );
