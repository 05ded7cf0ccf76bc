import type { GuardrailScopeKind } from '../model/guardrail';

/**
 * A rule key of the workspace file: `workspace`, `agent:<name>` or `space:<name>` (G1).
 * The file names agents and spaces; the store resolves the names to ids.
 */
export type ScopeKey = { kind: 'workspace'; name: null } | { kind: 'agent' | 'space'; name: string };

export type ParseScopeResult = { ok: true; scope: ScopeKey } | { ok: false; error: string };

const USAGE = 'use "workspace", "agent:<name>" or "space:<name>"';

/**
 * Reads a scope key. The kind is matched case-insensitively and surrounding blanks are
 * ignored; the name is kept as written (trimmed), since agent and space names may contain
 * `-`, `.` or spaces (M6 only warns about them).
 */
export function parseScope(raw: string): ParseScopeResult {
  const text = raw.trim();
  if (text === '') return { ok: false, error: `A guardrail scope is empty; ${USAGE}.` };
  const colon = text.indexOf(':');
  const kind = (colon === -1 ? text : text.slice(0, colon)).trim().toLowerCase();
  const name = colon === -1 ? null : text.slice(colon + 1).trim();

  if (kind === 'workspace') {
    if (name === null) return { ok: true, scope: { kind: 'workspace', name: null } };
    return {
      ok: false,
      error: `The workspace scope takes no name: write "workspace", not "${text}".`,
    };
  }
  if (kind === 'agent' || kind === 'space') {
    if (name === null || name === '') {
      const example = kind === 'agent' ? 'agent:alice' : 'space:backend';
      return {
        ok: false,
        error: `The scope "${text}" needs a name: write "${kind}:<name>", for example "${example}".`,
      };
    }
    return { ok: true, scope: { kind, name } };
  }
  return { ok: false, error: `Unknown guardrail scope "${text}"; ${USAGE}.` };
}

export function formatScope(scope: ScopeKey): string {
  return scope.kind === 'workspace' ? 'workspace' : `${scope.kind}:${scope.name}`;
}

/** Builds a key from a kind and a name (or id); the name is ignored for the workspace. */
export function scopeKey(kind: GuardrailScopeKind, name: string): ScopeKey {
  return kind === 'workspace' ? { kind, name: null } : { kind, name };
}
