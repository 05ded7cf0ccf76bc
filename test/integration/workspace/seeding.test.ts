import { lstat, mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('workspace seeding on %s', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let service: WorkspaceService;

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    dataDir = await makeTempDir();
    service = new WorkspaceService(db.database.store, new FileWorkspaceDirectory(dataDir.path));
  });
  afterEach(async () => {
    await db.dispose();
    await dataDir.remove();
  });

  const agentNames = (workspaceId: string) =>
    db.database.store.transaction(async (tx) => (await tx.agents.list(workspaceId)).map((a) => a.name));

  it('A11: creates ceo and four agents reporting to it; creating twice never duplicates', async () => {
    const first = await service.create('acme');
    expect(first.created).toBe(true);
    expect(first.seededAgents).toEqual(['ceo', 'qa', 'architect', 'engineer', 'librarian']);

    const second = await service.create('acme');
    expect(second.created).toBe(false);
    expect(second.seededAgents).toEqual([]);
    expect(await agentNames(first.workspace.id)).toEqual(['ceo', 'qa', 'architect', 'engineer', 'librarian']);

    const agents = await db.database.store.transaction((tx) => tx.agents.list(first.workspace.id));
    const ceo = agents.find((a) => a.name === 'ceo');
    for (const agent of agents) {
      expect(agent.title).not.toBe('');
      expect(agent.persona.length).toBeGreaterThan(40);
      expect(agent.adapterId).toBeNull(); // A10: built-in loop, default model
      expect(agent.modelId).toBeNull();
      expect(agent.reportsToId).toBe(agent.name === 'ceo' ? null : ceo?.id);
    }
  });

  it('A3: writes each agent folder, and rewrites it when the row already exists', async () => {
    await service.create('acme');
    const agentsMd = path.join(dataDir.path, 'acme/agents/engineer/AGENTS.md');
    const original = await readFile(agentsMd, 'utf8');
    expect(original).toMatch(
      /^---\nname: engineer\ntitle: Software engineer\nreportsTo: ceo\nadapter: builtin\n/,
    );
    expect(original).toContain('## Persona');

    await writeFile(agentsMd, 'tampered');
    await rm(path.join(dataDir.path, 'acme/agents/qa'), { recursive: true });
    await service.create('acme');

    expect(await readFile(agentsMd, 'utf8')).toBe(original);
    expect((await lstat(path.join(dataDir.path, 'acme/agents/qa/AGENTS.md'))).isFile()).toBe(true);
  });

  it('A3: removes a skill link the agent no longer holds but leaves other files alone', async () => {
    await service.create('acme');
    const skillsDir = path.join(dataDir.path, 'acme/agents/qa/.agents/skills');
    await symlink('../../../../skills/gone', path.join(skillsDir, 'gone'));
    await writeFile(path.join(skillsDir, 'notes.txt'), 'mine');
    await service.create('acme');
    await expect(readlink(path.join(skillsDir, 'gone'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(skillsDir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('A3: a failing folder write rolls the new workspace and its agents back', async () => {
    // A plain file where the agent folder must go makes the write fail for real.
    await mkdir(path.join(dataDir.path, 'acme/agents'), { recursive: true });
    await writeFile(path.join(dataDir.path, 'acme/agents/architect'), 'not a folder');

    await expect(service.create('acme')).rejects.toThrow(/EEXIST|ENOTDIR/);
    const workspace = await db.database.store.transaction((tx) => tx.workspaces.findBySlug('acme'));
    expect(workspace).toBeNull();
  });

  it('refuses a workspace slug that would leave the data directory', async () => {
    await expect(service.create('../escape')).rejects.toThrow(/must be a slug/);
    await expect(service.create('a/b')).rejects.toThrow(/must be a slug/);
    const all = await db.database.store.transaction((tx) => tx.workspaces.list());
    expect(all).toEqual([]);
  });
});
