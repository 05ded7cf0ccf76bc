import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { globTool } from '../../../src/adapters/tools/glob-tool';
import { createSearchTool, searchTool } from '../../../src/adapters/tools/search-tool';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

describe('A16: search and glob over the working directory', () => {
  let root: { path: string; remove(): Promise<void> };
  let work: string;
  let outside: string;
  let checkouts: string;
  const signal = new AbortController().signal;

  const put = async (relative: string, content: string | Buffer, mtimeSeconds?: number) => {
    const file = path.join(work, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    if (mtimeSeconds !== undefined) await utimes(file, mtimeSeconds, mtimeSeconds);
  };

  beforeEach(async () => {
    root = await makeTempDir();
    work = path.join(root.path, 'agents', 'engineer');
    outside = path.join(root.path, 'secrets');
    checkouts = path.join(root.path, 'spaces', 'general', 'repos');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'key.ts'), 'const TODO = "TOP-SECRET";\n');
    await mkdir(path.join(checkouts, 'widgets'), { recursive: true });
    await writeFile(path.join(checkouts, 'widgets', 'w.ts'), '// TODO widget\n');
    await put('.gitignore', 'dist/\n*.log\n!keep.log\n', 1_000);
    await put('src/a.ts', 'const a = 1;\n// TODO one\n', 3_000);
    await put('src/b.ts', '// todo two\r\n', 2_000);
    await put('src/gen/.gitignore', '*.gen.ts\n', 1_000);
    await put('src/gen/x.gen.ts', '// TODO generated\n', 1_000);
    await put('src/gen/y.ts', '// TODO y\n', 4_000);
    await put('dist/out.js', '// TODO built\n', 1_000);
    await put('debug.log', 'TODO log\n', 1_000);
    await put('keep.log', 'TODO keep\n', 1_000);
    await put('.git/HEAD', 'TODO git\n', 1_000);
    await put('bin.dat', Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('TODO binary\n')]), 1_000);
    await symlink(outside, path.join(work, 'out'));
    await symlink(path.join(outside, 'key.ts'), path.join(work, 'key.ts'));
    await mkdir(path.join(work, 'repos'));
    await symlink(path.join(checkouts, 'widgets'), path.join(work, 'repos', 'widgets'));
  });
  afterEach(async () => {
    await root.remove();
  });

  const search = (
    input: { pattern: string; path?: string; glob?: string; ignore_case?: boolean },
    linked = false,
  ) => searchTool.run(input, toolScope(work, 'review', linked ? { linkedRoots: [checkouts] } : {}), signal);
  const glob = (input: { pattern: string; path?: string }, linked = false) =>
    globTool.run(input, toolScope(work, 'plan', linked ? { linkedRoots: [checkouts] } : {}), signal);

  it('A16 search: path:line: text, without what .gitignore ignores (nested ones too), .git/ or binary files; X1: no link out', async () => {
    expect(await search({ pattern: 'TODO' })).toEqual({
      ok: true,
      output: ['keep.log:1: TODO keep', 'src/a.ts:2: // TODO one', 'src/gen/y.ts:1: // TODO y'].join('\n'),
    });
    expect((await search({ pattern: 'TOP-SECRET' })).output).toBe(
      'No matches for TOP-SECRET in your working directory.',
    );
  });

  it('M9, X1: search follows the overlay link into the linked checkouts, and only with linkedRoots', async () => {
    expect((await search({ pattern: 'widget' }, true)).output).toBe('repos/widgets/w.ts:1: // TODO widget');
    expect((await search({ pattern: 'widget' })).output).toBe(
      'No matches for widget in your working directory.',
    );
  });

  it('A16 search: ignore_case, a path, a glob (by name in any folder, or by path); a line ending in CR is shown without it', async () => {
    expect((await search({ pattern: 'todo \\w+', ignore_case: true, path: 'src' })).output).toBe(
      ['src/a.ts:2: // TODO one', 'src/b.ts:1: // todo two', 'src/gen/y.ts:1: // TODO y'].join('\n'),
    );
    expect((await search({ pattern: 'TODO', glob: '*.log' })).output).toBe('keep.log:1: TODO keep');
    expect((await search({ pattern: 'TODO', glob: '*.ts' })).output).toBe(
      ['src/a.ts:2: // TODO one', 'src/gen/y.ts:1: // TODO y'].join('\n'),
    );
    expect((await search({ pattern: 'TODO', glob: 'gen/*.ts', path: 'src' })).output).toBe(
      'src/gen/y.ts:1: // TODO y',
    );
    expect((await search({ pattern: 'const', path: 'src/a.ts' })).output).toBe('src/a.ts:1: const a = 1;');
  });

  it('A16 search refuses with a sentence: a bad expression, ../ and a link out', async () => {
    expect(await search({ pattern: '(unclosed' })).toEqual({
      ok: false,
      output: expect.stringMatching(/^Not a valid regular expression: .*Unterminated group/),
    });
    expect(await search({ pattern: 'TODO', path: '../../secrets' })).toEqual({
      ok: false,
      output: 'Refused: ../../secrets is outside your working directory.',
    });
    expect(await search({ pattern: 'TODO', path: 'out' })).toEqual({
      ok: false,
      output: 'Refused: out leads outside your working directory through a symbolic link.',
    });
    expect((await search({ pattern: 'TODO', path: 'missing' })).output).toBe(
      'No such file or directory: missing',
    );
  });

  it('A16 search output is bounded by matches and by bytes, and says how to narrow it', async () => {
    await put('many.txt', Array.from({ length: 300 }, (_, i) => `hit ${i}`).join('\n'));
    const many = await search({ pattern: '^hit', path: 'many.txt' });
    const lines = many.output.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe('many.txt:200: hit 199');
    expect(lines[200]).toBe('[… output stopped at 200 matches; narrow the pattern, path or glob …]');
    await put('wide.txt', Array.from({ length: 150 }, () => `wide ${'w'.repeat(1000)}`).join('\n'));
    const wide = await search({ pattern: '^wide', path: 'wide.txt' });
    expect(Buffer.byteLength(wide.output)).toBeLessThanOrEqual(24_000 + 100);
    expect(wide.output).toMatch(/\[… output stopped at 24000 bytes; narrow the pattern, path or glob …\]$/);
    // One line's text is cut to 300 characters.
    expect(wide.output.split('\n')[0]).toHaveLength('wide.txt:1: '.length + 300);
  });

  it('A16 a pattern that backtracks without end is stopped after the timeout, and the event loop stays free meanwhile', async () => {
    await put('slow.txt', `${'a'.repeat(40)}b\n`);
    const tool = createSearchTool({ timeoutMs: 1_000 });
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks++;
    }, 20);
    const started = Date.now();
    const outcome = await tool.run(
      { pattern: '^(a+)+$', path: 'slow.txt' },
      toolScope(work, 'review'),
      signal,
    );
    clearInterval(ticker);
    expect(outcome).toEqual({
      ok: false,
      output:
        'The search took longer than 1 s and was stopped: simplify the pattern (nested repetition such as (a+)+ backtracks without end) or narrow the path or glob.',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThan(5);
  });

  it('A16 a search is ended when the turn is stopped', async () => {
    await put('slow.txt', `${'a'.repeat(40)}b\n`);
    const stop = new AbortController();
    const running = searchTool.run({ pattern: '^(a+)+$', path: 'slow.txt' }, toolScope(work), stop.signal);
    setTimeout(() => stop.abort(), 100);
    expect(await running).toEqual({ ok: false, output: 'Search stopped: the turn was stopped.' });
  });

  it('A16 glob: newest first, .gitignore honoured, .git skipped, no link out (or in, without linkedRoots)', async () => {
    expect(await glob({ pattern: '**/*.ts' })).toEqual({
      ok: true,
      output: 'src/gen/y.ts\nsrc/a.ts\nsrc/b.ts',
    });
    expect((await glob({ pattern: '**/*.ts' }, true)).output.split('\n')).toContain('repos/widgets/w.ts');
    expect((await glob({ pattern: '*' })).output.split('\n').sort()).toEqual([
      '.gitignore',
      'bin.dat',
      'keep.log',
    ]);
    expect((await glob({ pattern: '**/HEAD' })).output).toBe(
      'No files match **/HEAD in your working directory.',
    );
    expect((await glob({ pattern: '*.ts', path: 'src/gen' })).output).toBe('src/gen/y.ts');
  });

  it('A16 glob refuses ../ in the pattern or the path, and a link out as the path', async () => {
    expect((await glob({ pattern: '../../secrets/*' })).output).toMatch(
      /^Refused: the pattern \.\.\/\.\.\/secrets\/\* must be relative/,
    );
    expect((await glob({ pattern: '/etc/*' })).ok).toBe(false);
    expect((await glob({ pattern: '*', path: '..' })).output).toBe(
      'Refused: .. is outside your working directory.',
    );
    expect((await glob({ pattern: '*', path: 'out' })).output).toMatch(/through a symbolic link/);
  });

  it('A16 glob output is bounded and says how many more files match', async () => {
    for (let i = 0; i < 520; i++) await put(`many/f${String(i).padStart(3, '0')}.md`, '', 10_000 + i);
    const lines = (await glob({ pattern: 'many/*.md' })).output.split('\n');
    expect(lines).toHaveLength(501);
    expect(lines[0]).toBe('many/f519.md');
    expect(lines[500]).toBe(
      '[… output stopped at 500 files; 20 more files match; narrow the pattern or path …]',
    );
  });

  it('X1: a link to a folder inside is followed once, never round in a loop', async () => {
    await symlink(work, path.join(work, 'src', 'loop'));
    const found = (await glob({ pattern: '**/y.ts' })).output.split('\n');
    expect(found).toEqual(['src/gen/y.ts']);
  });
});
