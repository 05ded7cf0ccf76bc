// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { makeTempDir } from '../../support/temp-dir';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const FILE = `
workspace: acme
mcpServers:
  - name: sentry
    url: "https://\${env:SENTRY_HOST}/mcp"
    headers: { Authorization: "Bearer \${env:SENTRY_TOKEN}", X-Org: acme }
  - name: github
    command: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "\${env:GITHUB_TOKEN}" }
    allowedDomains: [api.github.com]
  - name: linear
    url: https://mcp.linear.app/mcp
    auth: { kind: oauth, tokens: member }
agents:
  - { name: alice, mcpServers: [github] }
spaces:
  - { name: backend, mcpServers: [sentry, linear] }
  - { name: quiet }
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

describe.each(DATABASE_KINDS)('mcpServers through apply and export on %s (E1, E2)', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let service: WorkspaceService;
  const apply = (text: string) => service.apply(parseWorkspaceFile(text));
  /** The servers a turn of `agent` in `space` gets, by name. */
  const turn = (agent: string, space: string | null) =>
    db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug('acme');
      const agentRow = await tx.agents.findByName(workspace?.id ?? '', agent);
      const spaceRow = space === null ? null : await tx.spaces.findByName(workspace?.id ?? '', space);
      return (await tx.mcpServers.forTurn(agentRow?.id ?? '', spaceRow?.id ?? null)).map((s) => s.name);
    });

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    dataDir = await makeTempDir();
    service = new WorkspaceService(db.database.store, new FileWorkspaceDirectory(dataDir.path));
  });
  afterEach(async () => {
    await db.dispose();
    await dataDir.remove();
  });

  it('E1 declares the servers, gives them to agents and spaces, and exports them as written', async () => {
    const report = await apply(FILE);
    expect(report.created).toEqual(
      expect.arrayContaining(['mcp server sentry', 'mcp server github', 'mcp server linear']),
    );
    expect(await turn('alice', 'backend')).toEqual(['github', 'linear', 'sentry']);
    expect(await turn('alice', 'quiet')).toEqual(['github']);
    expect(await turn('ceo', 'backend')).toEqual(['linear', 'sentry']);

    const exported = await service.export('acme');
    // E2: references unexpanded; the servers by name; defaults left out.
    expect(exported.mcpServers).toEqual([
      {
        name: 'github',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_TOKEN}' },
        allowedDomains: ['api.github.com'],
      },
      { name: 'linear', url: 'https://mcp.linear.app/mcp', auth: { kind: 'oauth', tokens: 'member' } },
      {
        name: 'sentry',
        url: 'https://${env:SENTRY_HOST}/mcp',
        headers: { Authorization: 'Bearer ${env:SENTRY_TOKEN}', 'X-Org': 'acme' },
      },
    ]);
    expect(exported.agents?.find((a) => a.name === 'alice')?.mcpServers).toEqual(['github']);
    expect(exported.agents?.find((a) => a.name === 'ceo')).not.toHaveProperty('mcpServers');
    expect(exported.spaces?.find((s) => s.name === 'backend')?.mcpServers).toEqual(['sentry', 'linear']);
    expect(exported.spaces?.find((s) => s.name === 'quiet')).not.toHaveProperty('mcpServers');

    // apply ∘ export is the identity, and so is applying the same file again.
    expect(await service.apply(exported)).toEqual({ created: [], updated: [] });
    expect(await apply(FILE)).toEqual({ created: [], updated: [] });
    expect(await service.export('acme')).toEqual(exported);
  });

  it('E1 refuses a name no server has, writing nothing', async () => {
    const bad = `${FILE}  - { name: frontend, mcpServers: [linear, nope] }\n`.replace(
      'mcpServers: [github] }',
      'mcpServers: [github, jira] }',
    );
    expect(await issuesOf(apply(bad))).toEqual([
      'spaces[2].mcpServers[1]: no MCP server named "nope"; declare it under mcpServers',
      'agents[0].mcpServers[1]: no MCP server named "jira"; declare it under mcpServers',
    ]);
    expect(await db.database.store.transaction((tx) => tx.workspaces.findBySlug('acme'))).toBeNull();
  });

  it('E1 takes a given list as the whole list and keeps one left out', async () => {
    await apply(FILE);
    // No mcpServers key: the servers stay, and a space may be given one declared before.
    expect(await apply('workspace: acme\nspaces:\n  - { name: quiet, mcpServers: [github] }\n')).toEqual({
      created: [],
      updated: ['space quiet'],
    });
    expect(await turn('ceo', 'quiet')).toEqual(['github']);
    // A space or agent without mcpServers keeps its own.
    expect(await apply('workspace: acme\nspaces:\n  - { name: backend, context: billing }\n')).toEqual({
      created: [],
      updated: ['space backend'],
    });
    expect(await turn('ceo', 'backend')).toEqual(['linear', 'sentry']);

    // A list given replaces: sentry is removed (and taken from backend), github's spec changes.
    const next = `
workspace: acme
mcpServers:
  - { name: github, command: uvx, args: [github-mcp] }
  - { name: linear, url: https://mcp.linear.app/mcp, auth: { kind: oauth, tokens: member } }
spaces:
  - { name: backend, mcpServers: [linear] }
`;
    expect(await apply(next)).toEqual({
      created: [],
      updated: ['mcp server github', 'mcp server sentry (removed)'],
    });
    expect(await turn('alice', 'backend')).toEqual(['github', 'linear']);
    expect((await service.export('acme')).mcpServers?.[0]).toEqual({
      name: 'github',
      command: 'uvx',
      args: ['github-mcp'],
    });

    // Removing a server that a space in the same file still names is refused.
    expect(
      await issuesOf(
        apply('workspace: acme\nmcpServers: []\nspaces:\n  - { name: backend, mcpServers: [linear] }\n'),
      ),
    ).toEqual(['spaces[0].mcpServers[0]: no MCP server named "linear"; declare it under mcpServers']);
    // An empty list removes every server, and with them every assignment.
    await apply('workspace: acme\nmcpServers: []\n');
    expect(await turn('alice', 'backend')).toEqual([]);
    expect(await service.export('acme')).not.toHaveProperty('mcpServers');
  });
});
