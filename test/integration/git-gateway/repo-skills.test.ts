import { mkdir, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SpaceWorktrees } from '../../../src/adapters/git-gateway/space-worktrees';
import { silentLogger } from '../../../src/core/ports/logger';
import { makeTempDir } from '../../support/temp-dir';

describe('A7 the active repo’s skills follow the agent’s writes', () => {
  it('switching repos unlinks the old repo’s skills and links the new one’s; installed skills stay and win', async () => {
    const data = await makeTempDir();
    try {
      const repos = path.join(data.path, 'ws', 'spaces', 'web', 'repos');
      const skill = async (repo: string, base: string, name: string) => {
        const dir = path.join(repos, repo, base, name);
        await mkdir(dir, { recursive: true });
        await writeFile(
          path.join(dir, 'SKILL.md'),
          `---\nname: ${name}\ndescription: ${name} of ${repo}\n---\n`,
        );
      };
      await skill('api', '.agents/skills', 'migrate');
      await skill('api', '.claude/skills', 'deploy');
      await skill('web', '.opencode/skills', 'storybook');
      await skill('web', '.agents/skills', 'deploy');
      const agentDir = path.join(data.path, 'ws', 'agents', 'engineer');
      await mkdir(path.join(agentDir, '.agents', 'skills'), { recursive: true });
      // An installed skill of the agent, as the workspace directory links it.
      await mkdir(path.join(data.path, 'ws', 'skills', 'migrate'), { recursive: true });
      await symlink(
        path.join('..', '..', '..', '..', 'skills', 'migrate'),
        path.join(agentDir, '.agents', 'skills', 'migrate'),
      );
      await writeFile(path.join(agentDir, 'AGENTS.md'), '# engineer\n');
      const trees = new SpaceWorktrees({ root: data.path, logger: silentLogger, home: data.path });
      const overlay = await trees.overlay('ws', 'web', 'engineer', agentDir);
      const skills = async () => (await readdir(path.join(overlay, '.agents', 'skills'))).sort();

      const api = await trees.noteWrite(overlay, 'repos/api/src/db.ts');
      expect(api).toMatchObject({ activeRepo: 'api', linked: ['deploy'] });
      expect(api.rejected).toEqual([{ path: 'migrate', reason: 'an installed skill has this name' }]);
      expect(await skills()).toEqual(['deploy', 'migrate']);
      const installed = () => readlink(path.join(overlay, '.agents', 'skills', 'migrate'));
      expect(await installed()).toContain(path.join('skills', 'migrate'));
      // Writing again in the same repo changes nothing.
      expect((await trees.noteWrite(overlay, 'repos/api/README.md')).linked).toEqual([]);

      const web = await trees.noteWrite(overlay, 'repos/web/index.html');
      expect(web).toMatchObject({ activeRepo: 'web', linked: ['deploy', 'storybook'] });
      expect(await skills()).toEqual(['deploy', 'migrate', 'storybook']);
      expect(await installed()).toContain(path.join('skills', 'migrate'));
      expect(await readlink(path.join(overlay, '.agents', 'skills', 'deploy'))).toContain(
        path.join('repos', 'web'),
      );
    } finally {
      await data.remove();
    }
  });
});
