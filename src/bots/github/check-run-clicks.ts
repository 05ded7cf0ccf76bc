import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { ChatEngine } from '../../core/ports/chat-engine';
import type { GitHubDelivery } from '../../core/ports/github-events';
import type { Logger } from '../../core/ports/logger';
import { APPROVE, approvalOfExternalId, DENY } from './check-run-bodies';

const SEEN_LIMIT = 10_000;

/** What a `check_run.requested_action` delivery says, once read. */
export interface CheckRunClick {
  repo: string;
  login: string;
  approvalId: string;
  verdict: 'approve' | 'deny';
  /** The pull request the check run is on (where a refusal is told); null when GitHub names none. */
  pull: number | null;
}

export interface CheckRunClicksDeps {
  engine: () => ChatEngine | null;
  directory: ChatDirectory;
  /** G4: tells the clicker, in the pull request's thread, why their click was refused. */
  refused: (click: CheckRunClick, reason: string) => Promise<void>;
  logger: Logger;
}

/**
 * G4, P21: Approve or Deny clicked on an approval's check run (`check_run.requested_action`).
 * The clicker's GitHub login decides through the same core call as a chat click (`act`): the
 * first click anywhere wins, and a login that may not decide is refused. GitHub shows the
 * clicker nothing, so a refusal is logged and told in the pull request's thread, naming them
 * (as every GitHub answer for one person is). A redelivery to this process is dropped; one to
 * another process asks again and is refused as already decided.
 */
export class CheckRunClicks {
  /** P6: the deliveries taken, so a redelivery is not told it came too late (per process). */
  private readonly seen = new Set<string>();

  constructor(private readonly deps: CheckRunClicksDeps) {}

  async handle(delivery: GitHubDelivery): Promise<void> {
    if (delivery.name !== 'check_run' || delivery.action !== 'requested_action') return;
    if (this.seen.has(delivery.id)) return;
    if (this.seen.size >= SEEN_LIMIT) this.seen.clear();
    this.seen.add(delivery.id);
    const click = readClick(delivery.payload);
    const log = this.deps.logger.child({ component: 'github-checks', deliveryId: delivery.id });
    if (click === null) {
      log.info({}, 'a check run action that is not a Summon approval was ignored');
      return;
    }
    const engine = this.deps.engine();
    const owner = await this.deps.directory.repoWorkspace(click.repo);
    if (engine === null || owner === null) {
      log.info({ repo: click.repo }, 'a check run action on a repository no space binds was ignored');
      return;
    }
    const result = await engine.act(
      { kind: 'approval', verdict: click.verdict, approvalId: click.approvalId },
      { platform: 'github', workspace: { slug: owner.slug }, senderId: click.login },
    );
    if (result.ok) {
      log.info(
        { approvalId: click.approvalId, login: click.login, verdict: click.verdict },
        'approval decided on GitHub',
      );
      return;
    }
    log.info(
      { approvalId: click.approvalId, login: click.login, reason: result.reason },
      'an approval click on GitHub was refused',
    );
    await this.deps.refused(click, result.reason);
  }
}

/** The click's fields, or null when the payload is not a click on one of Summon's approvals. */
export function readClick(payload: unknown): CheckRunClick | null {
  const p = (payload ?? {}) as {
    requested_action?: { identifier?: unknown };
    check_run?: { external_id?: unknown; pull_requests?: { number?: unknown }[] };
    sender?: { login?: unknown };
    repository?: { full_name?: unknown };
  };
  const identifier = p.requested_action?.identifier;
  const approvalId = approvalOfExternalId(p.check_run?.external_id);
  const login = p.sender?.login;
  const repo = p.repository?.full_name;
  if (identifier !== APPROVE && identifier !== DENY) return null;
  if (approvalId === null || typeof login !== 'string' || typeof repo !== 'string') return null;
  const pull = Array.isArray(p.check_run?.pull_requests) ? p.check_run.pull_requests[0]?.number : undefined;
  return {
    repo: repo.toLowerCase(),
    login,
    approvalId,
    verdict: identifier,
    pull: typeof pull === 'number' && Number.isSafeInteger(pull) && pull > 0 ? pull : null,
  };
}
