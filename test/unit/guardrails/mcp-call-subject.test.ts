import fc from 'fast-check';
import {
  cardArguments,
  MASK,
  maskSecrets,
  mcpApprovalDetails,
} from '../../../src/core/guardrails/mcp-call-card';
import { canonicalJson, mcpSubjectHash } from '../../../src/core/guardrails/mcp-call-subject';

/** The same object with its keys inserted in reverse order, at every depth. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).reverse())
    out[key] = reordered((value as Record<string, unknown>)[key]);
  return out;
}

const argsArb = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });

describe('E4: an MCP call’s hash binds its approval to exactly its server, tool and arguments', () => {
  it('E4: the same arguments in another key order have the same canonical JSON and hash', () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const again = reordered(args) as Record<string, unknown>;
        expect(canonicalJson(again)).toBe(canonicalJson(args));
        expect(mcpSubjectHash({ server: 'linear', tool: 't', arguments: again })).toBe(
          mcpSubjectHash({ server: 'linear', tool: 't', arguments: args }),
        );
      }),
    );
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('E4: another server, tool or argument value is another hash', () => {
    fc.assert(
      fc.property(argsArb, fc.string({ minLength: 1, maxLength: 8 }), (args, key) => {
        const base = mcpSubjectHash({ server: 'linear', tool: 'create_issue', arguments: args });
        expect(mcpSubjectHash({ server: 'github', tool: 'create_issue', arguments: args })).not.toBe(base);
        expect(mcpSubjectHash({ server: 'linear', tool: 'delete_issue', arguments: args })).not.toBe(base);
        const changed: Record<string, unknown> = Object.create(null);
        Object.assign(changed, args);
        Object.defineProperty(changed, key, { value: ['changed', args[key] ?? null], enumerable: true });
        expect(mcpSubjectHash({ server: 'linear', tool: 'create_issue', arguments: changed })).not.toBe(base);
      }),
    );
    // Array order is part of the call.
    expect(mcpSubjectHash({ server: 's', tool: 't', arguments: { ids: [1, 2] } })).not.toBe(
      mcpSubjectHash({ server: 's', tool: 't', arguments: { ids: [2, 1] } }),
    );
    expect(mcpSubjectHash({ server: 's', tool: 't', arguments: {} })).toMatch(/^[0-9a-f]{64}$/);
    // A key named __proto__ is a key like any other.
    expect(
      mcpSubjectHash({ server: 's', tool: 't', arguments: JSON.parse('{"__proto__":{"a":1}}') }),
    ).not.toBe(mcpSubjectHash({ server: 's', tool: 't', arguments: {} }));
  });
});

describe('E4, P5: the arguments on an approval card', () => {
  it('E4: values of secret-looking keys are masked at every depth; the rest is shown as is', () => {
    expect(
      maskSecrets({
        title: 'Login bug',
        api_key: 'sk-123',
        headers: { Authorization: 'Bearer x', Cookie: 'a=b', accept: 'json' },
        auth: [{ password: 'hunter2', user: 'dana' }, { accessToken: 't' }],
        clientSecret: { nested: 'x' },
        author: 'dana',
        session_id: 's',
      }),
    ).toEqual({
      title: 'Login bug',
      api_key: MASK,
      headers: { Authorization: MASK, Cookie: MASK, accept: 'json' },
      auth: [{ password: MASK, user: 'dana' }, { accessToken: MASK }],
      clientSecret: MASK,
      author: 'dana',
      session_id: MASK,
    });
  });

  it('E4: pretty JSON, never more than 20 lines or 1,500 characters, cut with "…"', () => {
    expect(cardArguments({ title: 'Login bug', labels: ['bug'] })).toBe(
      '{\n  "title": "Login bug",\n  "labels": [\n    "bug"\n  ]\n}',
    );
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const long = cardArguments(many);
    expect(long.split('\n')).toHaveLength(20);
    expect(long.endsWith('\n…')).toBe(true);
    const wide = cardArguments({ body: 'x'.repeat(5000) });
    expect(wide.length).toBe(1500);
    expect(wide.endsWith('\n…')).toBe(true);
    fc.assert(
      fc.property(argsArb, (args) => {
        const shown = cardArguments(args);
        expect(shown.length).toBeLessThanOrEqual(1500);
        expect(shown.split('\n').length).toBeLessThanOrEqual(20);
      }),
    );
  });

  it('E4: the card names the server, the tool, why it asks, and the masked arguments', () => {
    const details = mcpApprovalDetails(
      'engineer',
      { server: 'linear', tool: 'create_issue', arguments: { title: 'Bug', token: 'abc' }, readOnly: false },
      'mcp linear__create_issue needs approval first.',
    );
    expect(details).toEqual({
      summary: 'engineer wants to call linear__create_issue',
      lines: ['server: linear', 'tool: create_issue', 'mcp linear__create_issue needs approval first.'],
      code: `{\n  "title": "Bug",\n  "token": "${MASK}"\n}`,
    });
  });
});
