import { createHash, randomBytes } from 'node:crypto';
import type { GitCredentialRecord } from '../../core/model/git-gateway';
import type { RunRecord } from '../../core/model/records';
import type { Clock } from '../../core/ports/clock';
import type { Store } from '../../core/ports/store';
import { readRunScopeIn, scopeRepos } from '../../core/spaces/run-scope';

/** Per-run credentials live at most this long, and never past the end of their run. */
export const DEFAULT_CREDENTIAL_TTL_MS = 6 * 60 * 60 * 1000;
const TOKEN_PREFIX = 'sgw_';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export type CredentialCheck =
  | { ok: true; credential: GitCredentialRecord; run: RunRecord }
  | { ok: false; status: 401 | 403; reason: string };

/**
 * G3: the run's credential for the gateway: random, scoped to its space's repositories,
 * expiring when the run ends, stored hashed. It is not a GitHub credential: alone it reaches
 * nothing but the gateway, which decides each push.
 */
export class RunCredentials {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlMs = DEFAULT_CREDENTIAL_TTL_MS,
  ) {}

  /** A new credential for the run, covering its space's repos; null when the space has none. */
  async issue(runId: string): Promise<{ token: string; repos: string[] } | null> {
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const scope = await readRunScopeIn(tx, runId);
      const repos = scopeRepos(scope);
      if (scope === null || repos.length === 0) return null;
      await tx.gitCredentials.insert(scope.run.workspaceId, {
        runId,
        tokenHash: hashToken(token),
        repos,
        expiresAt: new Date(now.getTime() + this.ttlMs),
      });
      return { token, repos };
    });
  }

  /** Ends the run's credentials now (also implied once the run has finished). */
  revoke(runId: string): Promise<number> {
    return this.store.transaction((tx) => tx.gitCredentials.revokeForRun(runId, this.clock.now()));
  }

  /** Checks a presented token for `repo` ("owner/name"). */
  /**
   * 401 only when no credential was presented; a presented credential that is not (or no
   * longer) good is 403, so git reports it instead of prompting for a password.
   */
  async check(token: string | null, repo: string): Promise<CredentialCheck> {
    if (token === null || !token.startsWith(TOKEN_PREFIX)) {
      return { ok: false, status: 401, reason: 'a run credential is required' };
    }
    const now = this.clock.now();
    const found = await this.store.transaction(async (tx) => {
      const credential = await tx.gitCredentials.findByTokenHash(hashToken(token));
      const run = credential === null ? null : await tx.runs.findById(credential.runId);
      return { credential, run };
    });
    const { credential, run } = found;
    if (credential === null || run === null) return { ok: false, status: 403, reason: 'unknown credential' };
    if (credential.revokedAt !== null)
      return { ok: false, status: 403, reason: 'the credential was revoked' };
    if (credential.expiresAt.getTime() <= now.getTime()) {
      return { ok: false, status: 403, reason: 'the credential has expired' };
    }
    // G3: the credential expires when its run ends.
    if (run.status !== 'running' && run.status !== 'queued') {
      return { ok: false, status: 403, reason: `the run has ended (${run.status})` };
    }
    if (!credential.repos.some((r) => r.toLowerCase() === repo.toLowerCase())) {
      return { ok: false, status: 403, reason: `this run may not reach ${repo}` };
    }
    return { ok: true, credential, run };
  }
}

/** The password of HTTP Basic authentication, or null. */
export function basicPassword(header: string | undefined): string | null {
  if (header === undefined || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : decoded.slice(colon + 1);
}
