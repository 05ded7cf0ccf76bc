import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const ROLE = '123456789012345678';

const WITH_ACCESS = `workspace: acme
access:
  - { discord: { role: "${ROLE}" }, role: member }
  - { slack: { usergroup: S0123ABCDE }, role: approver }
  - { slack: { everyone: true }, role: viewer }
`;

async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe.each(DATABASE_KINDS)('P24 summon apply / export of access on %s', (kind) => {
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

  it('P24 access is stored in order and exported as given; applying the export changes nothing', async () => {
    const first = await service.apply(parseWorkspaceFile(WITH_ACCESS));
    expect(first.updated).toContain('access');
    const exported = await service.export('acme');
    expect(exported.access).toEqual([
      { discord: { role: ROLE }, role: 'member' },
      { slack: { usergroup: 'S0123ABCDE' }, role: 'approver' },
      { slack: { everyone: true }, role: 'viewer' },
    ]);
    expect(await service.apply(exported)).toEqual({ created: [], updated: [] });
    expect(await service.apply(parseWorkspaceFile(WITH_ACCESS))).toEqual({ created: [], updated: [] });
  });

  it('P24 export leaves people admitted by a group out; one given a role in the file becomes an explicit member, exported', async () => {
    await service.apply(parseWorkspaceFile(WITH_ACCESS));
    const store = db.database.store;
    const acme = await store.transaction((tx) => tx.workspaces.findBySlug('acme'));
    if (acme === null) throw new Error('no workspace');
    await store.inWorkspace(acme.id, (tx) =>
      tx.members.insert(acme.id, {
        nickname: 'ada',
        role: 'member',
        slackUserId: null,
        discordUserId: '223456789012345678',
        accessVia: `discord:role:${ROLE}`,
        accessViaName: 'contributors',
      }),
    );
    expect((await service.export('acme')).members ?? []).toEqual([]);
    const applied = await service.apply(
      parseWorkspaceFile('workspace: acme\nmembers: [{ nickname: ada, role: approver }]\n'),
    );
    expect(applied.updated).toEqual(['member ada']);
    expect((await service.export('acme')).members).toEqual([
      { nickname: 'ada', role: 'approver', discord: '223456789012345678' },
    ]);
    const ada = await store.inWorkspace(acme.id, (tx) => tx.members.findByNickname(acme.id, 'ada'));
    expect(ada).toMatchObject({ accessVia: null, accessViaName: null });
  });

  it('P24 a given list replaces the stored one, a file without access keeps it, an empty list removes it', async () => {
    await service.apply(parseWorkspaceFile(WITH_ACCESS));
    const replaced = await service.apply(
      parseWorkspaceFile('workspace: acme\naccess: [{ slack: { usergroup: S0123ABCDE }, role: admin }]\n'),
    );
    expect(replaced.updated).toEqual(['access']);
    expect((await service.export('acme')).access).toEqual([
      { slack: { usergroup: 'S0123ABCDE' }, role: 'admin' },
    ]);
    expect(await service.apply(parseWorkspaceFile('workspace: acme\nname: Acme Corp\n'))).toEqual({
      created: [],
      updated: ['workspace acme'],
    });
    expect((await service.export('acme')).access).toEqual([
      { slack: { usergroup: 'S0123ABCDE' }, role: 'admin' },
    ]);
    expect((await service.apply(parseWorkspaceFile('workspace: acme\naccess: []\n'))).updated).toEqual([
      'access',
    ]);
    expect((await service.export('acme')).access).toBeUndefined();
  });

  it('P24 a refused file writes nothing: the stored access stays as it was', async () => {
    await service.apply(parseWorkspaceFile(WITH_ACCESS));
    const before = await service.export('acme');
    // A good access list beside a bad reference: the whole file is refused.
    const refused = parseWorkspaceFile(
      'workspace: acme\naccess: [{ slack: { everyone: true }, role: admin }]\nspaces:\n  - { name: s, participants: [nobody] }\n',
    );
    expect(await issuesOf(service.apply(refused))).toEqual([
      expect.stringMatching(/^spaces\[0\]\.participants\[0\]: /),
    ]);
    // A bad access entry is refused before anything is applied.
    expect(() =>
      parseWorkspaceFile('workspace: acme\naccess: [{ slack: { everyone: true }, role: owner }]\n'),
    ).toThrow(ValidationError);
    expect(await service.export('acme')).toEqual(before);
  });
});
