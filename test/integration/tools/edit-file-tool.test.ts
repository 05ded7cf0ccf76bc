import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ChangedMeanwhile, stampOf, writeFileAtomic } from '../../../src/adapters/tools/atomic-write';
import { editFileTool } from '../../../src/adapters/tools/edit-file-tool';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

describe('A16: edit_file, exact replacement confined to the working directory', () => {
  let root: { path: string; remove(): Promise<void> };
  let work: string;
  let outside: string;
  const signal = new AbortController().signal;
  const source = 'export function load() {\n  return 1;\n}\n\nexport function save() {\n  return 1;\n}\n';

  beforeEach(async () => {
    root = await makeTempDir();
    work = path.join(root.path, 'agents', 'engineer');
    outside = path.join(root.path, 'secrets');
    await mkdir(path.join(work, 'src'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(work, 'src/store.ts'), source);
    await writeFile(path.join(outside, 'key.txt'), 'TOP-SECRET');
  });
  afterEach(async () => {
    await root.remove();
  });

  const edit = (input: { path: string; old_string: string; new_string: string; replace_all?: boolean }) =>
    editFileTool.run(input, toolScope(work), signal);

  it('A16 replaces the one occurrence, keeps the mode, leaves no temporary file and tells A7 of the write', async () => {
    await chmod(path.join(work, 'src/store.ts'), 0o750);
    const written: string[] = [];
    const scope = toolScope(work, 'chat', {
      noteWrite: async (p) => {
        written.push(p);
      },
    });
    const input = {
      path: 'src/store.ts',
      old_string: 'load() {\n  return 1;',
      new_string: 'load() {\n  return 2;',
    };
    expect(await editFileTool.run(input, scope, signal)).toEqual({
      ok: true,
      output: 'Edited src/store.ts: replaced 1 occurrence.',
    });
    expect(await readFile(path.join(work, 'src/store.ts'), 'utf8')).toBe(
      source.replace('return 1;', 'return 2;'),
    );
    expect((await stat(path.join(work, 'src/store.ts'))).mode & 0o777).toBe(0o750);
    expect(await readdir(path.join(work, 'src'))).toEqual(['store.ts']);
    expect(written).toEqual(['src/store.ts']);
  });

  it('A16 refuses an old text that is not found, ambiguous or empty, and leaves the file as it was', async () => {
    expect(await edit({ path: 'src/store.ts', old_string: 'return 3;', new_string: 'x' })).toEqual({
      ok: false,
      output: expect.stringMatching(
        /^Refused: old_string was not found in the file\. It must match the file exactly/,
      ),
    });
    expect(await edit({ path: 'src/store.ts', old_string: 'return 1;', new_string: 'return 2;' })).toEqual({
      ok: false,
      output:
        'Refused: old_string occurs 2 times in the file. Include more of the surrounding text so it occurs once, or set replace_all to replace every occurrence.',
    });
    expect(await edit({ path: 'src/store.ts', old_string: '', new_string: 'x' })).toEqual({
      ok: false,
      output:
        'Refused: old_string is empty. Give the exact text to replace, or use write_file to create a file.',
    });
    expect((await edit({ path: 'src/store.ts', old_string: 'load', new_string: 'load' })).output).toMatch(
      /the same; there is nothing to change/,
    );
    expect(await readFile(path.join(work, 'src/store.ts'), 'utf8')).toBe(source);
  });

  it('A16 replace_all replaces every occurrence and says how many', async () => {
    expect(
      await edit({
        path: 'src/store.ts',
        old_string: 'return 1;',
        new_string: 'return 0;',
        replace_all: true,
      }),
    ).toEqual({
      ok: true,
      output: 'Edited src/store.ts: replaced 2 occurrences.',
    });
    expect(await readFile(path.join(work, 'src/store.ts'), 'utf8')).toBe(
      source.replaceAll('return 1;', 'return 0;'),
    );
  });

  it('A16 a binary file is refused, and left as it was', async () => {
    const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x61]);
    await writeFile(path.join(work, 'tool.bin'), bytes);
    expect(await edit({ path: 'tool.bin', old_string: 'a', new_string: 'b' })).toEqual({
      ok: false,
      output: 'tool.bin is a binary file (it holds NUL bytes); edit_file edits text.',
    });
    expect(await readFile(path.join(work, 'tool.bin'))).toEqual(bytes);
  });

  it('A16 the atomic write lands only on the file as it was read: another writer in between wins, no temporary file stays', async () => {
    const file = path.join(work, 'src/store.ts');
    const readAs = await stampOf(file);
    await writeFile(file, 'the other writer\n');
    await utimes(file, 5_000, 5_000);
    await expect(writeFileAtomic(file, 'mine\n', readAs)).rejects.toBeInstanceOf(ChangedMeanwhile);
    expect(await readFile(file, 'utf8')).toBe('the other writer\n');
    expect(await readdir(path.join(work, 'src'))).toEqual(['store.ts']);
    await writeFileAtomic(file, 'mine\n', await stampOf(file));
    expect(await readFile(file, 'utf8')).toBe('mine\n');
  });

  it('A16 a missing file is a sentence; edit_file never creates one', async () => {
    expect(await edit({ path: 'src/nope.ts', old_string: 'a', new_string: 'b' })).toEqual({
      ok: false,
      output: 'No such file or directory: src/nope.ts',
    });
  });

  it('X1: refuses ../ and a symbolic link that leads out; edits through a link that stays inside', async () => {
    expect(await edit({ path: '../../secrets/key.txt', old_string: 'TOP', new_string: 'x' })).toEqual({
      ok: false,
      output: 'Refused: ../../secrets/key.txt is outside your working directory.',
    });
    await symlink(path.join(outside, 'key.txt'), path.join(work, 'key.txt'));
    expect(await edit({ path: 'key.txt', old_string: 'TOP', new_string: 'x' })).toEqual({
      ok: false,
      output: 'Refused: key.txt leads outside your working directory through a symbolic link.',
    });
    expect(await readFile(path.join(outside, 'key.txt'), 'utf8')).toBe('TOP-SECRET');
    await symlink(path.join(work, 'src/store.ts'), path.join(work, 'alias.ts'));
    expect((await edit({ path: 'alias.ts', old_string: 'save', new_string: 'store' })).ok).toBe(true);
    expect(await readFile(path.join(work, 'src/store.ts'), 'utf8')).toContain('export function store()');
    // The link stays a link: the edit went to what it points to.
    expect((await lstat(path.join(work, 'alias.ts'))).isSymbolicLink()).toBe(true);
  });
});
