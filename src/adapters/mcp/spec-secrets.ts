import type { McpServerSpec } from '../../core/model/mcp/mcp-server';

const REFERENCE = /\$\{env:[A-Za-z_][A-Za-z0-9_]*\}/g;

/**
 * E2: the values `${env:…}` references took in an expanded spec (its env, headers, url, args),
 * so that whatever reaches the model or a log can be cleaned of them. Found by matching each
 * expanded value against its declared one: `Bearer ${env:TOKEN}` → the token alone.
 */
export function expandedSecrets(declared: McpServerSpec, expanded: McpServerSpec): string[] {
  const pairs: [string, string][] = [];
  if (declared.transport === 'stdio' && expanded.transport === 'stdio') {
    for (const [name, value] of Object.entries(declared.env)) pairs.push([value, expanded.env[name] ?? '']);
    declared.args.forEach((arg, index) => {
      pairs.push([arg, expanded.args[index] ?? '']);
    });
    pairs.push([declared.command, expanded.command]);
  } else if (declared.transport === 'http' && expanded.transport === 'http') {
    for (const [name, value] of Object.entries(declared.headers))
      pairs.push([value, expanded.headers[name] ?? '']);
    pairs.push([declared.url, expanded.url]);
  }
  const secrets = new Set<string>();
  for (const [raw, value] of pairs) {
    if (!REFERENCE.test(raw)) continue;
    REFERENCE.lastIndex = 0;
    const pattern = new RegExp(`^${raw.split(REFERENCE).map(escapeRegExp).join('([\\s\\S]*?)')}$`);
    for (const part of pattern.exec(value)?.slice(1) ?? [value]) if (part.length >= 4) secrets.add(part);
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** E2: `text` with every one of `secrets` replaced by a mark. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
