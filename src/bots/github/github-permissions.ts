/** P20: the permissions that let a person start work on a repository. */
const WRITE = new Set(['admin', 'maintain', 'write']);

/**
 * P20: whether a GitHub login may start work on a repository: write permission, asked of
 * GitHub (`GET /repos/{owner}/{repo}/collaborators/{user}/permission`), never assumed, and
 * remembered briefly so a busy thread does not ask on every comment. A failed look-up counts
 * as no permission (fail closed) and is not remembered.
 */
export class WritePermissions {
  private readonly known = new Map<string, { write: boolean; until: number }>();

  constructor(
    private readonly ask: (repo: string, login: string) => Promise<string>,
    private readonly options: { ttlMs: number; now: () => number },
  ) {}

  async canWrite(repo: string, login: string): Promise<{ write: boolean; permission: string }> {
    const key = `${repo}\n${login.toLowerCase()}`;
    const now = this.options.now();
    const cached = this.known.get(key);
    if (cached !== undefined && cached.until > now) {
      return { write: cached.write, permission: cached.write ? 'write' : 'read' };
    }
    let permission: string;
    try {
      permission = await this.ask(repo, login);
    } catch (error) {
      // 404: not a collaborator (and not an outside one), so no permission at all.
      if ((error as { status?: number }).status === 404) permission = 'none';
      else throw error;
    }
    const write = WRITE.has(permission);
    this.known.set(key, { write, until: now + this.options.ttlMs });
    return { write, permission };
  }
}
