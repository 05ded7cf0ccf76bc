import { canStartWork } from '../model/member';
import type { GitHubAccountLinks } from '../ports/github-account-links';
import type { Store } from '../ports/store';
import { redeemInvite } from './member-invites';

/**
 * P8, P20: `/summon link-account <code>` written as a GitHub comment: the commenter's login
 * becomes the invited member's `github`, when the repository is bound to a space of the
 * code's workspace. Nicknames are written without `@`: on GitHub that would notify whoever
 * has that login.
 */
export class GitHubAccountLinker implements GitHubAccountLinks {
  constructor(private readonly store: Store) {}

  async link(request: { repo: string; login: string; code: string; now: Date }): Promise<string> {
    const result = await this.store.transaction((tx) =>
      redeemInvite(tx, {
        code: request.code,
        platform: 'github',
        externalTeamId: request.repo,
        userId: request.login,
        now: request.now,
      }),
    );
    if (!result.ok) return result.reason;
    const can = canStartWork(result.role)
      ? 'mention an agent to start work (with write permission on this repository)'
      : 'you can read along';
    return `Linked: your GitHub login is member ${result.nickname} (${result.role}) in Summon; ${can}.`;
  }
}
