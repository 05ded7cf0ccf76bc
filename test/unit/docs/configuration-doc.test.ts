import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** docs/configuration.md names every environment variable and CLI option the code reads. */
const root = path.join(__dirname, '../../..');
const doc = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const cliFiles = readdirSync(path.join(root, 'src/cli/commands')).map((f) => `src/cli/commands/${f}`);
const configFiles = readdirSync(path.join(root, 'src/config')).map((f) => `src/config/${f}`);

describe('docs/configuration.md is complete', () => {
  it('every environment variable src/config reads', () => {
    const names = configFiles.flatMap((file) =>
      [...read(file).matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]),
    );
    expect(names.length).toBeGreaterThan(15);
    expect([...new Set(names)].filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it('every command and option src/cli declares', () => {
    const declared = cliFiles.flatMap((file) => [
      ...[...read(file).matchAll(/\.command\('([a-z-]+)/g)].map((m) => m[1]),
      ...[...read(file).matchAll(/[oO]ption\('(?:-\w, )?(--[a-z-]+)/g)].map((m) => m[1]),
    ]);
    expect(declared.length).toBeGreaterThan(20);
    expect([...new Set(declared)].filter((word) => word !== undefined && !doc.includes(word))).toEqual([]);
  });
});
