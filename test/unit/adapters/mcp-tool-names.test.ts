import { expandedSecrets, redactor } from '../../../src/adapters/mcp/spec-secrets';
import { QUALIFIED_NAME_PATTERN, qualifiedToolName } from '../../../src/adapters/mcp/tool-names';
import { envRef } from '../../support/mcp/mcp-test-servers';

describe('E1 the names MCP tools reach the model by', () => {
  it('E1 <server>__<tool> as is when it fits the providers’ pattern', () => {
    expect(qualifiedToolName('linear', 'create_issue')).toBe('linear__create_issue');
  });

  it('E1 other characters become _ (deterministically), and a long name ends with its hash', () => {
    expect(qualifiedToolName('docs', 'files.read/v2')).toBe('docs__files_read_v2');
    const long = qualifiedToolName('github', `${'x'.repeat(70)}.a`);
    const other = qualifiedToolName('github', `${'x'.repeat(70)}.b`);
    expect(long).toMatch(QUALIFIED_NAME_PATTERN);
    expect(long).toHaveLength(64);
    expect(long).not.toBe(other);
    expect(qualifiedToolName('github', `${'x'.repeat(70)}.a`)).toBe(long);
  });
});

describe('E2 the credentials an expanded spec holds', () => {
  it('E2 finds the values of env references inside longer strings, and redacts them', () => {
    const declared = {
      name: 'remote',
      transport: 'http' as const,
      url: `https://mcp.example.com/?key=${envRef('KEY')}`,
      headers: { Authorization: `Bearer ${envRef('TOKEN')}`, Accept: 'application/json' },
    };
    const expanded = {
      ...declared,
      url: 'https://mcp.example.com/?key=k-123456',
      headers: { Authorization: 'Bearer t-abcdef', Accept: 'application/json' },
    };
    const secrets = expandedSecrets(declared, expanded);
    expect(secrets.sort()).toEqual(['k-123456', 't-abcdef']);
    expect(redactor(secrets)('token t-abcdef and key k-123456')).toBe('token [redacted] and key [redacted]');
  });
});
