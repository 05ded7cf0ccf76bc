import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { definedIds, expandRange, idsInFile, idsInSource } from './rule-citations';

/**
 * The repository explains itself: every rule id the code cites (`// M17: …`, a test named
 * "G4 …") is defined in `docs/rules.md`, and nothing links outside the repository to the
 * documents the rules came from.
 */
const root = path.join(__dirname, '../../..');
const SKIP = new Set(['node_modules', '.git', 'dist', '.summon', 'coverage']);
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
const relative = (file: string) => path.relative(root, file);
const rules = definedIds(readFileSync(path.join(root, 'docs', 'rules.md'), 'utf8'));

describe('rule ids resolve inside the repository', () => {
  it('docs/rules.md defines every family of the product', () => {
    for (const family of ['M', 'A', 'N', 'G', 'P', 'T', 'X', 'R', 'O', 'E']) {
      expect([...rules].some((id) => id.startsWith(family))).toBe(true);
    }
  });

  it('every rule id cited in src/, test/, migrations/ and bench/ is defined in docs/rules.md', () => {
    const undefinedIds = new Map<string, Set<string>>();
    let cited = 0;
    for (const dir of ['src', 'test', 'migrations', 'bench']) {
      for (const file of filesUnder(path.join(root, dir))) {
        for (const id of idsInFile(file, readFileSync(file, 'utf8'))) {
          cited += 1;
          if (rules.has(id)) continue;
          const where = undefinedIds.get(id) ?? new Set<string>();
          where.add(relative(file));
          undefinedIds.set(id, where);
        }
      }
    }
    expect(cited).toBeGreaterThan(500);
    const report = [...undefinedIds].map(([id, files]) => `${id} (cited in ${[...files].join(', ')})`);
    expect(report).toEqual([]);
  });

  it('no file of the repository points outside it, to the shared folder beside it', () => {
    const outside = ['..', 'shared'].join('/');
    const offenders = filesUnder(root)
      .filter((file) => !/\.(png|jpe?g|gif|ico|wasm|gz|tgz|zip|snap)$/.test(file))
      .filter((file) => readFileSync(file, 'utf8').includes(outside))
      .map(relative);
    expect(offenders).toEqual([]);
  });
});

describe('how citations are read', () => {
  it('expands ranges: N1–N3, M14-M16, G1–G2b', () => {
    expect(expandRange('N1', 'N3')).toEqual(['N1', 'N2', 'N3']);
    expect(expandRange('M14', 'M16')).toEqual(['M14', 'M15', 'M16']);
    expect(expandRange('G1', 'G2b')).toEqual(['G1', 'G2', 'G2b']);
    expect(idsInSource('// N1–N3, M14-M15 and G4')).toEqual(['N1', 'N2', 'N3', 'M14', 'M15', 'G4']);
  });

  it('reads comments, test names and template text; not code, bare ids or composite keys', () => {
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: source text to scan, not to run
    const source = [
      'const T0 = new Date(); // M17: an @ glued to a word is no mention',
      "it('G2a fails closed', () => bind('slack', 'T1', `slack:T2:Ev1 ${x} P9 row`));",
      'const y = { a: 1 }; const s = `before ${f({ b: 2 })} after A12`;',
      '/* X1 confined */ const id = `slack-T3-Ev1`;',
    ].join('\n');
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: -
    expect(idsInSource(source)).toEqual(['M17', 'G2a', 'P9', 'A12', 'X1']);
    expect(idsInFile('a.yaml', 'slack: { teamId: T1 } # see P1\n')).toEqual(['P1']);
  });
});
