import { envReference } from '../../../src/core/mcp/env-references';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

const stdio = (name: string, command = 'npx'): McpServerSpec => ({
  name,
  transport: 'stdio',
  command,
  args: ['-y', `@example/${name}`],
  env: { TOKEN: envReference('EXAMPLE_TOKEN') },
  allowedDomains: ['api.example.com'],
  readOnlyPaths: [],
});

describe.each(DATABASE_KINDS)('the MCP server store on %s (E1)', (kind) => {
  let db: TestDatabase;
  let ws: string;
  let ids: { agent: string; other: string; space: string; quiet: string };

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ({ ws, ids } = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      const id = workspace.id;
      for (const name of ['zeta', 'alpha', 'a-b', 'a_b', 'mid']) await tx.mcpServers.save(id, stdio(name));
      return {
        ws: id,
        ids: {
          agent: (await tx.agents.insert(id, agentFields('alice'))).id,
          other: (await tx.agents.insert(id, agentFields('bob'))).id,
          space: (await tx.spaces.insert(id, spaceFields('backend'))).id,
          quiet: (await tx.spaces.insert(id, spaceFields('quiet'))).id,
        },
      };
    }));
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);
  const turnNames = async (agentId: string, spaceId: string | null) =>
    (await inWs((tx) => tx.mcpServers.forTurn(agentId, spaceId))).map((s) => s.name);

  it('E1 lists the servers by name, their specs as saved (references unexpanded)', async () => {
    const listed = await inWs((tx) => tx.mcpServers.list());
    expect(listed.map((r) => r.spec.name)).toEqual(['a-b', 'a_b', 'alpha', 'mid', 'zeta']);
    expect(listed[0]).toEqual({ id: expect.any(String), workspaceId: ws, spec: stdio('a-b') });
    expect(await db.database.store.transaction((tx) => tx.mcpServers.listForWorkspace(ws))).toEqual(listed);
    // A system transaction is no workspace's: list() shows nothing there.
    expect(await db.database.store.transaction((tx) => tx.mcpServers.list())).toEqual([]);
  });

  it("E1 gives a turn the union of the space's and the agent's servers, by name, each once", async () => {
    await inWs(async (tx) => {
      await tx.mcpServers.assign(ws, { spaceId: ids.space }, ['zeta', 'mid']);
      await tx.mcpServers.assign(ws, { agentId: ids.agent }, ['mid', 'alpha']);
    });
    expect(await turnNames(ids.agent, ids.space)).toEqual(['alpha', 'mid', 'zeta']);
    expect(await turnNames(ids.agent, null)).toEqual(['alpha', 'mid']);
    expect(await turnNames(ids.agent, ids.quiet)).toEqual(['alpha', 'mid']);
    expect(await turnNames(ids.other, ids.space)).toEqual(['mid', 'zeta']);
    expect(await turnNames(ids.other, ids.quiet)).toEqual([]);
    expect(await turnNames('not-a-uuid', ids.space)).toEqual([]);
    // Each target's servers in the order they were given.
    const assigned = await inWs((tx) => tx.mcpServers.assignments(ws));
    expect(assigned.filter((a) => a.spaceId === ids.space).map((a) => a.server)).toEqual(['zeta', 'mid']);
    expect(assigned.filter((a) => a.agentId === ids.agent).map((a) => a.server)).toEqual(['mid', 'alpha']);
  });

  it('E1 replaces a spec in place, keeping who it is given to', async () => {
    await inWs((tx) => tx.mcpServers.save(ws, stdio('mid', 'uvx')));
    const [mid] = await inWs((tx) => tx.mcpServers.forTurn(ids.other, ids.space));
    expect(mid).toEqual(stdio('mid', 'uvx'));
  });

  it('E1 refuses to give an undeclared server, changing nothing', async () => {
    const before = await inWs((tx) => tx.mcpServers.assignments(ws));
    await expect(
      inWs((tx) => tx.mcpServers.assign(ws, { spaceId: ids.space }, ['mid', 'nope'])),
    ).rejects.toThrow('No MCP server named "nope" in this workspace.');
    expect(await inWs((tx) => tx.mcpServers.assignments(ws))).toEqual(before);
  });

  it('E1 drops assignments with the server, the space or the agent', async () => {
    await inWs((tx) => tx.mcpServers.remove(ws, 'zeta'));
    expect(await turnNames(ids.other, ids.space)).toEqual(['mid']);
    await db.database.store.inWorkspace(ws, (tx) =>
      tx.query('DELETE FROM agents WHERE id = $1', [ids.agent]),
    );
    await db.database.store.inWorkspace(ws, (tx) =>
      tx.query('DELETE FROM spaces WHERE id = $1', [ids.space]),
    );
    expect(await inWs((tx) => tx.mcpServers.assignments(ws))).toEqual([]);
    expect((await inWs((tx) => tx.mcpServers.list())).map((r) => r.spec.name)).toEqual([
      'a-b',
      'a_b',
      'alpha',
      'mid',
    ]);
  });

  it('E1 stores a name only as a slug of at most 24 characters', async () => {
    for (const name of ['Upper', 'x'.repeat(25), '-lead'])
      await expect(inWs((tx) => tx.mcpServers.save(ws, stdio(name)))).rejects.toThrow(
        'A value is outside what is allowed (ck_mcp_servers_name).',
      );
  });
});
