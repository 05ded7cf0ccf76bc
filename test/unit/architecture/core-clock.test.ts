import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The core reads the time only through the `Clock` port (handed in, so a test clock drives
 * expiries and waits): no `Date.now()` and no argument-less `new Date()` in `src/core`, except
 * where the port's own `systemClock` is defined.
 */
const root = path.join(__dirname, '../../..');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(root, full)] : [];
  });
const CLOCK_PORT = 'src/core/ports/clock.ts';
const READS_THE_TIME = /\bDate\.now\b|\bnew Date\(\s*\)/;

const readingsOf = (text: string): string[] =>
  text
    .split('\n')
    .flatMap((line, index) => (READS_THE_TIME.test(line) ? [`${index + 1}: ${line.trim()}`] : []));

describe('the core reads the time through the Clock port', () => {
  it('recognises a reading of the time', () => {
    expect(readingsOf('const t = Date.now();\nconst d = new Date( );\nconst e = new Date(0);')).toEqual([
      '1: const t = Date.now();',
      '2: const d = new Date( );',
    ]);
  });

  it('src/core has no Date.now() and no new Date() outside the Clock port', () => {
    const files = sourceFiles(path.join(root, 'src/core'));
    expect(files).toContain(CLOCK_PORT);
    const offenders = files
      .filter((file) => file !== CLOCK_PORT)
      .flatMap((file) =>
        readingsOf(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}:${line}`),
      );
    expect(offenders).toEqual([]);
  });
});
