import { formatScope, parseScope, type ScopeKey } from '../../../src/core/guardrails';

describe('G1: workspace-file scope keys', () => {
  it.each<[string, ScopeKey]>([
    ['workspace', { kind: 'workspace', name: null }],
    ['  Workspace ', { kind: 'workspace', name: null }],
    ['agent:alice', { kind: 'agent', name: 'alice' }],
    ['AGENT: alice ', { kind: 'agent', name: 'alice' }],
    ['space:backend', { kind: 'space', name: 'backend' }],
    ['space:code-review.v2', { kind: 'space', name: 'code-review.v2' }],
    ['space:a:b', { kind: 'space', name: 'a:b' }],
  ])('parses %j', (raw, scope) => {
    expect(parseScope(raw)).toEqual({ ok: true, scope });
  });

  it.each<[string, string]>([
    ['', 'A guardrail scope is empty; use "workspace", "agent:<name>" or "space:<name>".'],
    ['   ', 'A guardrail scope is empty; use "workspace", "agent:<name>" or "space:<name>".'],
    ['workspace:acme', 'The workspace scope takes no name: write "workspace", not "workspace:acme".'],
    ['agent', 'The scope "agent" needs a name: write "agent:<name>", for example "agent:alice".'],
    ['space: ', 'The scope "space:" needs a name: write "space:<name>", for example "space:backend".'],
    ['team:core', 'Unknown guardrail scope "team:core"; use "workspace", "agent:<name>" or "space:<name>".'],
    ['alice', 'Unknown guardrail scope "alice"; use "workspace", "agent:<name>" or "space:<name>".'],
  ])('refuses %j with a sentence that says what to write', (raw, error) => {
    expect(parseScope(raw)).toEqual({ ok: false, error });
  });

  it.each<[ScopeKey, string]>([
    [{ kind: 'workspace', name: null }, 'workspace'],
    [{ kind: 'agent', name: 'alice' }, 'agent:alice'],
    [{ kind: 'space', name: 'backend' }, 'space:backend'],
  ])('formats %j as %s, and parses it back', (scope, text) => {
    expect(formatScope(scope)).toBe(text);
    expect(parseScope(text)).toEqual({ ok: true, scope });
  });
});
