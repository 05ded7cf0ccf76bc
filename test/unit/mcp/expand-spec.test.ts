// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import fc from 'fast-check';
import { envReference, escapeLiteral } from '../../../src/core/mcp/env-references';
import { expandSpec, referencedVariables, variableStatus } from '../../../src/core/mcp/expand-spec';
import type { McpHttpServerSpec, McpServerSpec } from '../../../src/core/model/mcp/mcp-server';

const github: McpServerSpec = {
  name: 'github',
  transport: 'stdio',
  command: `${envReference('TOOLS')}/github-mcp`,
  args: ['--org', envReference('ORG'), '--literal', '$${keep}'],
  env: { GITHUB_TOKEN: envReference('GH_TOKEN'), MODE: 'read' },
  allowedDomains: ['api.github.com'],
  readOnlyPaths: [`${envReference('HOME')}/.config/gh`],
  cwd: envReference('HOME'),
};

const linear: McpHttpServerSpec = {
  name: 'linear',
  transport: 'http',
  url: `https://${envReference('LINEAR_HOST')}/mcp`,
  headers: { Authorization: `Bearer ${envReference('LINEAR_TOKEN')}` },
};

describe('expanding a declared server (E2)', () => {
  it('E2 names every variable a spec refers to, each once, sorted', () => {
    expect(referencedVariables(github)).toEqual(['GH_TOKEN', 'HOME', 'ORG', 'TOOLS']);
    expect(referencedVariables(linear)).toEqual(['LINEAR_HOST', 'LINEAR_TOKEN']);
  });

  it('E2 replaces every reference, and only references', () => {
    const env = { TOOLS: '/opt/tools', ORG: 'acme', GH_TOKEN: 'ghp_x', HOME: '/home/summon' };
    expect(expandSpec(github, env)).toEqual({
      ok: true,
      spec: {
        ...github,
        command: '/opt/tools/github-mcp',
        args: ['--org', 'acme', '--literal', '${keep}'],
        env: { GITHUB_TOKEN: 'ghp_x', MODE: 'read' },
        readOnlyPaths: ['/home/summon/.config/gh'],
        cwd: '/home/summon',
      },
    });
    expect(expandSpec(linear, { LINEAR_HOST: 'mcp.linear.app', LINEAR_TOKEN: 'lin_1' })).toEqual({
      ok: true,
      spec: { ...linear, url: 'https://mcp.linear.app/mcp', headers: { Authorization: 'Bearer lin_1' } },
    });
  });

  it('E2 calls a variable that is unset or empty missing, and expands nothing then', () => {
    expect(expandSpec(linear, { LINEAR_HOST: 'mcp.linear.app', LINEAR_TOKEN: '' })).toEqual({
      ok: false,
      missing: ['LINEAR_TOKEN'],
    });
    expect(expandSpec(github, {})).toEqual({ ok: false, missing: ['GH_TOKEN', 'HOME', 'ORG', 'TOOLS'] });
    expect(variableStatus(linear, { LINEAR_HOST: 'h' })).toEqual([
      { name: 'LINEAR_HOST', set: true },
      { name: 'LINEAR_TOKEN', set: false },
    ]);
  });

  it('E2 refuses a stored spec with a malformed reference, naming the server', () => {
    const broken: McpHttpServerSpec = { ...linear, headers: { Authorization: 'Bearer ${env:lower}' } };
    expect(() => referencedVariables(broken)).toThrow(
      'MCP server "linear" has a malformed reference: "${env:lower}": a variable name is capital letters, digits and _, not starting with a digit',
    );
  });

  it('E2 puts each value in verbatim, whatever it holds, and never an empty one', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (secret, literal) => {
        fc.pre(!literal.endsWith('$')); // a `$` right before a reference belongs in its value
        const spec: McpHttpServerSpec = {
          ...linear,
          url: 'https://mcp.example.com',
          headers: { 'X-Key': `${escapeLiteral(literal)}${envReference('KEY')}` },
        };
        const expanded = expandSpec(spec, { KEY: secret });
        expect(expanded).toEqual({
          ok: true,
          spec: { ...spec, headers: { 'X-Key': `${literal}${secret}` } },
        });
        expect(expandSpec(spec, { KEY: '' })).toEqual({ ok: false, missing: ['KEY'] });
      }),
    );
  });
});
