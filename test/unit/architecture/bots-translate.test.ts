import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * P18: the front ends only translate. What `src/bots/**` may import from `src/core`: the ports
 * it talks through, the closed vocabularies and errors, and pure translation helpers. Rules
 * and services (the engine, the inbox routing, direct-message spaces, the outbox deliverer,
 * the command service, the store-backed directory) are the core's, built by `src/app`.
 */
const root = path.join(__dirname, '../../..');

/** Imported in any form (a path under `src/core/`, a folder ending in `/`). */
const ALLOWED = [
  'ports/',
  'model/',
  'errors',
  'text/',
  'streaming/',
  // Pure translation helpers:
  'mentions', // findCodeRanges: where code is, so mentions in it are left alone
  'notes', // formatNoteTime
  'usage/budget', // formatTokens, formatUsd
  'usage/token-usage', // totalTokens
  'commands/unknown-interaction', // P17's sentences
  'outbox/delivery-error', // the error a platform sender throws (P7's retry advice)
  'outbox/keyed-serial-queue', // one platform call after another, per key
  'attachments/file-host', // P13: which links a platform's files are fetched from
] as const;

/** Imported for their types only (`import type`): the shapes a front end renders. */
const TYPES_ONLY = ['commands/workspace-overview', 'agents/presence'] as const;

const allows = (list: readonly string[], module: string): boolean =>
  list.some((entry) => (entry.endsWith('/') ? module.startsWith(entry) : module === entry));

/** Why a bot's import of `module` (a path under `src/core/`) is refused; null when it is allowed. */
function refusal(module: string, typeOnly: boolean): string | null {
  if (allows(ALLOWED, module)) return null;
  if (allows(TYPES_ONLY, module))
    return typeOnly ? null : `core/${module} may only be imported for its types`;
  return `core/${module} is not a translation helper`;
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(root, full)] : [];
  });

/** Every `import … from`, `export … from`, `import('…')` and `require('…')` of a file, with whether it is type-only. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/\b(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gs)) {
    if (match[3] !== undefined) found.push({ spec: match[3], typeOnly: match[2] !== undefined });
  }
  for (const match of text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]/g)) {
    if (match[1] !== undefined) found.push({ spec: match[1], typeOnly: false });
  }
  return found;
}

/** The path under `src/core/` a bot file's import names, or null for anything else. */
function coreModule(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const resolved = path.posix.join(path.posix.dirname(file.split(path.sep).join('/')), spec);
  return resolved.startsWith('src/core/') ? resolved.slice('src/core/'.length) : null;
}

describe('P18: the bots only translate', () => {
  const files = sourceFiles(path.join(root, 'src/bots'));

  it('finds the bots and their imports of the core', () => {
    expect(files.length).toBeGreaterThan(40);
    const core = files.flatMap((file) => importsOf(file).filter((i) => coreModule(file, i.spec) !== null));
    expect(core.length).toBeGreaterThan(50);
  });

  it('src/bots imports from src/core only ports, vocabularies, errors and the listed translation helpers', () => {
    const offenders = files.flatMap((file) =>
      importsOf(file).flatMap(({ spec, typeOnly }) => {
        const module = coreModule(file, spec);
        const why = module === null ? null : refusal(module, typeOnly);
        return why === null ? [] : [`${file} → ${spec}: ${why}`];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('src/bots imports nothing of src/adapters, src/storage or src/app: their work reaches a front end through a port', () => {
    const offenders = files.flatMap((file) =>
      importsOf(file).flatMap(({ spec }) => {
        if (!spec.startsWith('.')) return [];
        const resolved = path.posix.join(path.posix.dirname(file.split(path.sep).join('/')), spec);
        return /^src\/(adapters|storage|app|cli)\//.test(resolved) ? [`${file} → ${spec}`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it.each([
    ['spaces/direct-space', false],
    ['outbox/outbox-deliverer', false],
    ['outbox/outbox-deliverer', true],
    ['engine/turn-engine', false],
    ['engine/routing/receive-message', true],
    ['ingest/direct-inbox', false],
    ['commands/summon-commands', false],
    ['directory/store-chat-directory', false],
    ['commands/workspace-overview', false],
    ['agents/agent-roster', false],
  ] as const)('refuses core/%s (type-only: %s)', (module, typeOnly) => {
    expect(refusal(module, typeOnly)).not.toBeNull();
  });

  it.each([
    ['ports/chat-directory', false],
    ['model/attachment', false],
    ['text/split-message', false],
    ['commands/unknown-interaction', false],
    ['commands/workspace-overview', true],
  ] as const)('allows core/%s (type-only: %s)', (module, typeOnly) => {
    expect(refusal(module, typeOnly)).toBeNull();
  });

  it('reads multi-line and type-only imports', () => {
    const probe = 'src/bots/slack/slack-app-home.ts';
    const specs = importsOf(probe);
    expect(specs).toContainEqual({ spec: '../../core/model/workspace-overview', typeOnly: true });
    expect(coreModule(probe, '../../core/spaces/direct-space')).toBe('spaces/direct-space');
    expect(coreModule(probe, './slack-cards')).toBeNull();
  });
});
