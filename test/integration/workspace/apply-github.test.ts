import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase } from '../../support/test-database';

const file = (repos: string, github = 'Dana-GH') => `
workspace: acme
members:
  - { nickname: dana, role: approver, github: ${github} }
spaces:
  - name: backend
    repos: ${repos}
`;

describe('P19, P20: GitHub in the workspace file', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let service: WorkspaceService;
  const githubBindings = async () => {
    const store = db.database.store;
    const workspace = await store.transaction((tx) => tx.workspaces.findBySlug('acme'));
    const id = workspace?.id ?? '';
    const bindings = await store.inWorkspace(id, (tx) => tx.channelBindings.listForWorkspace(id));
    return bindings.filter((b) => b.platform === 'github').map((b) => b.channelId);
  };

  beforeEach(async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    service = new WorkspaceService(db.database.store, new FileWorkspaceDirectory(dataDir.path));
  });
  afterEach(async () => {
    await db.dispose();
    await dataDir.remove();
  });

  it('P20: a member’s github login is applied and exported; P19: a space’s repos are its GitHub channels', async () => {
    await service.apply(parseWorkspaceFile(file('[Acme/API, acme/web]')));
    expect((await githubBindings()).sort()).toEqual(['acme/api', 'acme/web']);
    const exported = await service.export('acme');
    expect(exported.members?.find((m) => m.nickname === 'dana')?.github).toBe('Dana-GH');
    expect(exported.spaces?.find((s) => s.name === 'backend')).toMatchObject({
      repos: ['Acme/API', 'acme/web'],
    });
    expect(exported.spaces?.find((s) => s.name === 'backend')?.channels ?? []).toEqual([]);
    const member = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug('acme');
      return tx.members.findByPlatformUser(workspace?.id ?? '', 'github', 'dana-gh');
    });
    expect(member?.nickname).toBe('dana');
  });

  it('P19: a repository dropped from a space is no longer its channel', async () => {
    await service.apply(parseWorkspaceFile(file('[acme/api, acme/web]')));
    const report = await service.apply(parseWorkspaceFile(file('[acme/web]')));
    expect(report.updated).toContain('space backend');
    expect(await githubBindings()).toEqual(['acme/web']);
  });

  it('P20: a login that is not GitHub’s shape, or given twice, is refused with its place', async () => {
    expect(() => parseWorkspaceFile(file('[]', 'not a login'))).toThrow(ValidationError);
    const twice = `
workspace: acme
members:
  - { nickname: dana, github: same }
  - { nickname: mo, github: SAME }
`;
    try {
      parseWorkspaceFile(twice);
      throw new Error('expected a ValidationError');
    } catch (error) {
      expect((error as ValidationError).issues).toContainEqual({
        path: 'members[1].github',
        message: 'duplicates members[0]',
      });
    }
  });
});
