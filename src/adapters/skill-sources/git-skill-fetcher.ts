import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError, NotFoundError } from '../../core/errors';
import type { Logger } from '../../core/ports/logger';
import type { FetchedSkill, SkillFetcher, SourceListing } from '../../core/ports/skill-sources';
import { parseSkillMarkdown } from '../../core/skills/skill-front-matter';
import { authHeaderEnv, runGit } from '../git-gateway/git-command';
import type { UpstreamAuth } from '../git-gateway/upstream';
import { readSkillFolder } from './read-skill-folder';

export interface GitSkillFetcherOptions {
  /** GITHUB_GIT_URL: `<gitUrl>/<owner>/<repo>.git`. */
  gitUrl: string;
  /** The GitHub credential Summon already has (App or GITHUB_TOKEN); null: anonymous (public repos). */
  auth: UpstreamAuth | null;
  /** The repository's metadata (untrusted display data), when the REST API is reachable. */
  metadata?: (repo: string) => Promise<{ description: string | null; stars: number | null }>;
  logger: Logger;
  /** Where temporary checkouts go (default: the system's temporary folder). */
  tempDir?: string;
}

/**
 * A6: a skill folder at one commit, through the real `git`: a shallow fetch of the ref into
 * a temporary repository, then a checkout of that commit there. Nothing is written under the
 * workspace; a failed fetch removes the temporary folder and throws.
 */
export class GitSkillFetcher implements SkillFetcher {
  constructor(private readonly options: GitSkillFetcherOptions) {}

  async fetchSkill(repo: string, skillPath: string, ref?: string): Promise<FetchedSkill> {
    const checkout = await this.checkout(repo, ref);
    try {
      const dir = path.join(checkout.dir, 'work', ...skillPath.split('/'));
      const stat = await lstat(dir).catch(() => null);
      if (stat === null || !stat.isDirectory())
        throw new NotFoundError(
          `${repo} has no skill folder ${skillPath} at ${checkout.commit.slice(0, 12)}`,
        );
      const files = await readSkillFolder(dir);
      return {
        repo,
        path: skillPath,
        commit: checkout.commit,
        files,
        stagingDir: dir,
        dispose: checkout.dispose,
      };
    } catch (error) {
      await checkout.dispose();
      throw error;
    }
  }

  async listSkills(repo: string, sourcePath: string, ref?: string): Promise<SourceListing> {
    const checkout = await this.checkout(repo, ref);
    try {
      const base = path.join(checkout.dir, 'work', ...(sourcePath === '.' ? [] : sourcePath.split('/')));
      const skills: SourceListing['skills'] = [];
      for (const name of (await readdir(base).catch(() => [] as string[])).sort()) {
        const text = await readFile(path.join(base, name, 'SKILL.md'), 'utf8').catch(() => null);
        if (text === null) continue;
        const parsed = parseSkillMarkdown(text);
        skills.push({
          name,
          path: sourcePath === '.' ? name : `${sourcePath}/${name}`,
          description: parsed.ok ? parsed.frontMatter.description : null,
        });
      }
      const metadata = await this.options.metadata?.(repo).catch((error: unknown) => {
        this.options.logger.warn({ err: error, repo }, 'repository metadata not available');
        return null;
      });
      return {
        repo,
        commit: checkout.commit,
        description: metadata?.description ?? null,
        stars: metadata?.stars ?? null,
        skills,
      };
    } finally {
      await checkout.dispose();
    }
  }

  private async checkout(repo: string, ref: string | undefined) {
    const dir = await mkdtemp(path.join(this.options.tempDir ?? tmpdir(), 'summon-skill-'));
    const dispose = () => rm(dir, { recursive: true, force: true });
    try {
      const home = path.join(dir, 'home');
      const work = path.join(dir, 'work');
      const env =
        this.options.auth === null ? {} : authHeaderEnv(await this.options.auth.authorization(repo, 'read'));
      const git = async (args: string[], what: string) => {
        const result = await runGit(args, { cwd: work, home, extraEnv: env });
        if (result.code !== 0) {
          const detail = result.stderr.trim().split('\n').pop() ?? '';
          this.options.logger.warn({ repo, what, stderr: result.stderr.slice(0, 500) }, 'skill fetch failed');
          throw new AppError(
            `could not ${what} ${repo}: ${detail}; nothing was written`,
            'skill_fetch_failed',
          );
        }
        return result.stdout.trim();
      };
      await runGit(['init', '-q', work], { home });
      const url = `${this.options.gitUrl.replace(/\/$/, '')}/${repo}.git`;
      await git(['fetch', '--quiet', '--depth', '1', '--no-tags', url, ref ?? 'HEAD'], 'fetch');
      const commit = await git(['rev-parse', 'FETCH_HEAD^{commit}'], 'read the commit of');
      await git(['-c', 'core.symlinks=true', 'checkout', '--quiet', '--detach', commit], 'check out');
      return { dir, commit, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }
}
