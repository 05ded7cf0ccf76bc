// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import { ValidationError } from '../../../src/core/errors';
import { entryOfSpec, specOfEntry } from '../../../src/core/mcp/mcp-server-entry';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';

function refusal(text: string): string[] {
  try {
    parseWorkspaceFile(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const GOOD = `
workspace: acme
mcpServers:
  - name: github
    command: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "\${env:GITHUB_TOKEN}" }
    allowedDomains: [api.github.com]
    readOnlyPaths: ["\${env:HOME}/.config/gh", /etc/ssl/certs]
    cwd: /srv/mcp
  - name: linear
    url: https://mcp.linear.app/mcp
    auth: { kind: oauth, tokens: member }
  - name: sentry_eu
    url: "https://\${env:SENTRY_HOST}/mcp"
    headers: { Authorization: "Bearer \${env:SENTRY_TOKEN}", X-Literal: "sk-live-looks-secret" }
agents:
  - { name: alice, mcpServers: [github] }
spaces:
  - { name: backend, mcpServers: [linear, sentry_eu] }
`;

describe('mcpServers in the workspace file (E1, E2)', () => {
  it('E1 accepts local and remote servers, given to agents and spaces by name', () => {
    const file = parseWorkspaceFile(GOOD);
    expect(file.mcpServers?.map((s) => s.name)).toEqual(['github', 'linear', 'sentry_eu']);
    expect(file.agents?.[0]?.mcpServers).toEqual(['github']);
    expect(file.spaces?.[0]?.mcpServers).toEqual(['linear', 'sentry_eu']);
    // E2: a value that looks like a literal secret is not refused (docs recommend references).
    expect(file.mcpServers?.[2]?.headers?.['X-Literal']).toBe('sk-live-looks-secret');
  });

  it('E1 refuses an entry with both command and url, or neither, naming it', () => {
    expect(
      refusal(`
workspace: acme
mcpServers:
  - { name: both, command: npx, url: "https://x.example.com/mcp" }
  - { name: neither, args: [x] }
`),
    ).toEqual([
      'mcpServers[0]: "both" has both command and url: a server is either a local program (command) or a remote one (url)',
      'mcpServers[1]: "neither" has neither command nor url: give command for a local program or url for a remote server',
    ]);
  });

  it("E1 refuses a local program's keys on a remote server and the other way round", () => {
    expect(
      refusal(`
workspace: acme
mcpServers:
  - { name: remote, url: "https://x.example.com/mcp", env: { A: b }, cwd: /tmp }
  - { name: local, command: npx, headers: { A: b }, auth: { kind: oauth, tokens: workspace } }
`),
    ).toEqual([
      'mcpServers[0].env: only for a local program (command)',
      'mcpServers[0].cwd: only for a local program (command)',
      'mcpServers[1].headers: only for a remote server (url)',
      'mcpServers[1].auth: only for a remote server (url)',
    ]);
  });

  it('E1 refuses a name that is no slug, too long or used twice', () => {
    const rule =
      'must be a lowercase slug (a-z, 0-9, - and _, not starting with - or _) of at most 24 characters';
    expect(
      refusal(`
workspace: acme
mcpServers:
  - { name: GitHub, command: npx }
  - { name: ${'x'.repeat(25)}, command: npx }
  - { name: ok, command: npx }
  - { name: ok, url: "https://x.example.com" }
agents:
  - { name: alice, mcpServers: [ok, ok, Bad] }
spaces:
  - { name: backend, mcpServers: [ok, ok] }
`),
    ).toEqual([
      `agents[0].mcpServers[2]: ${rule}`,
      `mcpServers[0].name: ${rule}`,
      `mcpServers[1].name: ${rule}`,
    ]);
    expect(
      refusal(`
workspace: acme
mcpServers:
  - { name: ok, command: npx }
  - { name: ok, url: "https://x.example.com" }
agents:
  - { name: alice, mcpServers: [ok, ok] }
spaces:
  - { name: backend, mcpServers: [ok, ok] }
`),
    ).toEqual([
      'mcpServers[1].name: duplicates mcpServers[0]',
      'agents[0].mcpServers[1]: duplicates agents[0].mcpServers[0]',
      'spaces[0].mcpServers[1]: duplicates spaces[0].mcpServers[0]',
    ]);
  });

  it('E2 refuses a malformed reference wherever it is, with a sentence', () => {
    expect(
      refusal(`
workspace: acme
mcpServers:
  - name: local
    command: "\${env:}"
    args: ["\${ENV:X}"]
    env: { TOKEN: "\${env:token}" }
    readOnlyPaths: ["\${HOME}/x"]
  - name: remote
    url: "https://\${env:HOST"
    headers: { Authorization: "Bearer \${env:1TOKEN}" }
`),
    ).toEqual([
      'mcpServers[0].command: "${env:}" names no variable',
      'mcpServers[0].args[0]: "${ENV:X}" is not a reference: write ${env:NAME} (or $${ for a literal ${)',
      'mcpServers[0].env.TOKEN: "${env:token}": a variable name is capital letters, digits and _, not starting with a digit',
      'mcpServers[0].readOnlyPaths[0]: "${HOME}" is not a reference: write ${env:NAME} (or $${ for a literal ${)',
      'mcpServers[1].url: "${env:HOST" is not closed with "}"',
      'mcpServers[1].headers.Authorization: "${env:1TOKEN}": a variable name is capital letters, digits and _, not starting with a digit',
    ]);
  });

  it('E1 refuses a URL, path, variable or header name that cannot be one, and Authorization beside auth', () => {
    expect(
      refusal(`
workspace: acme
mcpServers:
  - { name: ftp, url: "ftp://x.example.com" }
  - { name: rel, command: npx, cwd: srv, readOnlyPaths: [data], env: { 1A: x }, allowedDomains: ["https://x.io"] }
  - name: both-auth
    url: https://x.example.com/mcp
    headers: { authorization: "Bearer \${env:T}", "Bad Header": x }
    auth: { kind: oauth, tokens: everyone }
`),
    ).toEqual([
      'mcpServers[0].url: must be an http(s) URL such as "https://mcp.example.com/mcp"',
      'mcpServers[1].env.1A: must be a variable name (letters, digits and _, not starting with a digit)',
      expect.stringMatching(/^mcpServers\[1\]\.allowedDomains\[0\]: must be a lowercase host name/),
      'mcpServers[1].readOnlyPaths[0]: must be an absolute path (or start with a ${env:NAME} reference)',
      'mcpServers[1].cwd: must be an absolute path (or start with a ${env:NAME} reference)',
      'mcpServers[2].headers.Bad Header: must be an HTTP header name such as "Authorization"',
      'mcpServers[2].auth.tokens: must be one of: member, workspace',
    ]);
    expect(
      refusal(`
workspace: acme
mcpServers:
  - name: both-auth
    url: https://x.example.com/mcp
    headers: { authorization: "Bearer \${env:T}", X-Org: a, x-org: b }
    auth: { kind: oauth, tokens: member }
`),
    ).toEqual([
      'mcpServers[0].headers.x-org: duplicates headers.X-Org',
      'mcpServers[0].headers.authorization: not with auth: the OAuth token is sent as Authorization',
    ]);
  });

  it('E1 turns an entry into its spec and back, empty lists and maps left out', () => {
    const file = parseWorkspaceFile(GOOD);
    for (const entry of file.mcpServers ?? []) expect(entryOfSpec(specOfEntry(entry))).toEqual(entry);
    expect(specOfEntry({ name: 'bare', command: 'srv', args: [], env: {} })).toEqual({
      name: 'bare',
      transport: 'stdio',
      command: 'srv',
      args: [],
      env: {},
      allowedDomains: [],
      readOnlyPaths: [],
    });
    expect(entryOfSpec(specOfEntry({ name: 'bare', command: 'srv', args: [], env: {} }))).toEqual({
      name: 'bare',
      command: 'srv',
    });
  });
});
