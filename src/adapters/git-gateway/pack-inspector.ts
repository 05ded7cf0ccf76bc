import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { UpdateFacts } from '../../core/git/push-card';
import { updateKind, ZERO_ID } from '../../core/git/ref-updates';
import type { RefUpdate } from '../../core/model/git-gateway';
import { authHeaderEnv, runGit } from './git-command';
import type { UpstreamAuth } from './upstream';

const MAX_COMMITS = 20;

/**
 * G4: what a waiting push really does, for its card: whether each update is a fast-forward,
 * and which commits it adds. The gateway keeps a bare mirror of each repository (fetched with
 * its own credential), indexes the spooled pack into a throw-away repository that borrows the
 * mirror's objects, and asks git.
 */
export class PackInspector {
  constructor(private readonly options: { workDir: string; upstreamUrl: string; auth: UpstreamAuth }) {}

  async inspect(
    repo: string,
    updates: readonly RefUpdate[],
    pack: (() => Readable) | null,
  ): Promise<Map<string, UpdateFacts>> {
    const facts = new Map<string, UpdateFacts>();
    const needsObjects = updates.filter((u) => updateKind(u) !== 'delete');
    if (needsObjects.length === 0) return facts;
    const mirror = await this.refreshMirror(repo);
    const scratch = await mkdtemp(path.join(this.options.workDir, 'inspect-'));
    const home = this.options.workDir;
    try {
      await runGit(['init', '--bare', '-q', scratch], { home });
      await writeFile(
        path.join(scratch, 'objects', 'info', 'alternates'),
        `${path.join(mirror, 'objects')}\n`,
      );
      if (pack !== null) {
        const indexed = await runGit(['index-pack', '--stdin', '--fix-thin'], {
          cwd: scratch,
          stdin: pack(),
          home,
        });
        if (indexed.code !== 0) return facts;
      }
      // The facts depend only on the old and new ids: many refs pushed at the same commits (a
      // push of 150 new branches) ask git once, not twice per ref.
      const described = new Map<string, UpdateFacts>();
      for (const update of needsObjects) {
        const key = `${update.oldId} ${update.newId}`;
        const known = described.get(key) ?? (await this.describe(scratch, update, home));
        described.set(key, known);
        facts.set(update.ref, known);
      }
      return facts;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async describe(gitDir: string, update: RefUpdate, home: string): Promise<UpdateFacts> {
    const git = (args: string[]) => runGit(['--git-dir', gitDir, ...args], { home });
    let force: boolean | null = null;
    if (update.oldId !== ZERO_ID) {
      const ancestor = await git(['merge-base', '--is-ancestor', update.oldId, update.newId]);
      force = ancestor.code === 0 ? false : ancestor.code === 1 ? true : null;
    }
    const range =
      update.oldId === ZERO_ID ? [update.newId, '--not', '--all'] : [update.newId, `^${update.oldId}`];
    const count = await git(['rev-list', '--count', ...range]);
    const log = await git(['log', `-n${MAX_COMMITS}`, '--format=%h %s', ...range]);
    const commits = log.code === 0 ? log.stdout.split('\n').filter((l) => l !== '') : [];
    const total = Number.parseInt(count.stdout.trim(), 10);
    return { force, commits, ...(Number.isFinite(total) ? { totalCommits: total } : {}) };
  }

  /** The gateway's bare mirror of `repo`, fetched now; the credential goes through the environment. */
  private async refreshMirror(repo: string): Promise<string> {
    const mirror = path.join(this.options.workDir, 'mirrors', `${repo}.git`);
    const home = this.options.workDir;
    await mkdir(path.dirname(mirror), { recursive: true });
    await runGit(['init', '--bare', '-q', mirror], { home });
    const url = `${this.options.upstreamUrl.replace(/\/$/, '')}/${repo}.git`;
    await runGit(
      [
        '--git-dir',
        mirror,
        'fetch',
        '--quiet',
        '--prune',
        url,
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ],
      { home, extraEnv: authHeaderEnv(await this.options.auth.authorization(repo, 'read')) },
    );
    return mirror;
  }
}
