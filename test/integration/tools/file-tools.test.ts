import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listFilesTool, readFileTool, writeFileTool } from '../../../src/adapters/tools/file-tools';
import { readSkillTool } from '../../../src/core/tools/read-skill-tool';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

describe('file tools, confined to the working directory', () => {
  let root: { path: string; remove(): Promise<void> };
  let work: string;
  let outside: string;
  const signal = new AbortController().signal;

  beforeEach(async () => {
    root = await makeTempDir();
    work = path.join(root.path, 'agents', 'engineer');
    outside = path.join(root.path, 'secrets');
    await mkdir(work, { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'key.txt'), 'TOP-SECRET');
  });
  afterEach(async () => {
    await root.remove();
  });

  it('write_file creates folders and writes; read_file reads it back; list_files lists it', async () => {
    const scope = toolScope(work);
    expect(await writeFileTool.run({ path: 'src/app.ts', content: 'export {};\n' }, scope, signal)).toEqual({
      ok: true,
      output: 'Wrote 11 bytes to src/app.ts.',
    });
    expect(await readFile(path.join(work, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(await readFileTool.run({ path: 'src/app.ts' }, scope, signal)).toEqual({
      ok: true,
      output: '     1\texport {};',
    });
    expect(await listFilesTool.run({}, scope, signal)).toEqual({ ok: true, output: 'src/\nsrc/app.ts' });
  });

  it('refuses paths above the working directory with a sentence', async () => {
    const scope = toolScope(work);
    for (const tool of [readFileTool, writeFileTool] as const) {
      const outcome = await tool.run({ path: '../../secrets/key.txt', content: 'x' }, scope, signal);
      expect(outcome).toEqual({
        ok: false,
        output: 'Refused: ../../secrets/key.txt is outside your working directory.',
      });
    }
    expect(await listFilesTool.run({ path: '/etc' }, scope, signal)).toEqual({
      ok: false,
      output: 'Refused: /etc is outside your working directory.',
    });
    expect(await readFile(path.join(outside, 'key.txt'), 'utf8')).toBe('TOP-SECRET');
  });

  it('refuses symlink escapes, for reading and for writing through a linked folder', async () => {
    await symlink(path.join(outside, 'key.txt'), path.join(work, 'innocent.txt'));
    await symlink(outside, path.join(work, 'linked'));
    const scope = toolScope(work);
    expect(await readFileTool.run({ path: 'innocent.txt' }, scope, signal)).toEqual({
      ok: false,
      output: 'Refused: innocent.txt leads outside your working directory through a symbolic link.',
    });
    const write = await writeFileTool.run({ path: 'linked/new.txt', content: 'x' }, scope, signal);
    expect(write.ok).toBe(false);
    expect(write.output).toMatch(/through a symbolic link/);
    expect((await listFilesTool.run({ path: 'linked' }, scope, signal)).ok).toBe(false);
  });

  it('M9: an overlay may write through its link into the space checkouts (linkedRoots), nowhere else; A7 hears of the write', async () => {
    const checkouts = path.join(root.path, 'spaces', 'general', 'repos');
    await mkdir(path.join(checkouts, 'widgets'), { recursive: true });
    await mkdir(path.join(work, 'repos'), { recursive: true });
    await symlink(path.join(checkouts, 'widgets'), path.join(work, 'repos', 'widgets'));
    await symlink(outside, path.join(work, 'repos', 'sneaky'));
    const written: string[] = [];
    const scope = toolScope(work, 'chat', {
      linkedRoots: [checkouts],
      noteWrite: async (p) => {
        written.push(p);
      },
    });
    expect(
      await writeFileTool.run({ path: 'repos/widgets/fix.txt', content: 'fixed\n' }, scope, signal),
    ).toEqual({
      ok: true,
      output: 'Wrote 6 bytes to repos/widgets/fix.txt.',
    });
    expect(await readFile(path.join(checkouts, 'widgets', 'fix.txt'), 'utf8')).toBe('fixed\n');
    expect(written).toEqual(['repos/widgets/fix.txt']);
    expect(await writeFileTool.run({ path: 'repos/sneaky/x.txt', content: 'x' }, scope, signal)).toEqual({
      ok: false,
      output: 'Refused: repos/sneaky/x.txt leads outside your working directory through a symbolic link.',
    });
    // Without linkedRoots (no prepared workspace) the checkout link is an escape like any other.
    const plain = await writeFileTool.run(
      { path: 'repos/widgets/a.txt', content: 'a' },
      toolScope(work),
      signal,
    );
    expect(plain.ok).toBe(false);
    expect(written).toEqual(['repos/widgets/fix.txt']);
  });

  it('A16 read_file reads a line range, numbered, and says how to read on when it stops early', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
    await writeFile(path.join(work, 'long.txt'), `${lines.join('\n')}\n`);
    const scope = toolScope(work, 'review');
    expect(await readFileTool.run({ path: 'long.txt', offset: 10, limit: 2 }, scope, signal)).toEqual({
      ok: true,
      output: '    10\tline 10\n    11\tline 11\n[… lines 10–11 of 2500 shown; read on with offset 12 …]',
    });
    const whole = await readFileTool.run({ path: 'long.txt' }, scope, signal);
    expect(whole.output.split('\n')).toHaveLength(2001);
    expect(whole.output).toMatch(/^ {5}1\tline 1\n/);
    expect(whole.output).toMatch(
      /\n {2}2000\tline 2000\n\[… lines 1–2000 of 2500 shown \(the most one read returns\); read on with offset 2001 …\]$/,
    );
    expect((await readFileTool.run({ path: 'long.txt', offset: 2500 }, scope, signal)).output).toBe(
      '  2500\tline 2500',
    );
    // A16: the window is bounded in bytes too (256 KB), whatever the line count.
    await writeFile(path.join(work, 'wide.txt'), `${'y'.repeat(1500)}\n`.repeat(400));
    const wide = await readFileTool.run({ path: 'wide.txt' }, scope, signal);
    expect(Buffer.byteLength(wide.output)).toBeLessThanOrEqual(256 * 1024 + 200);
    expect(wide.output).toMatch(/read on with offset \d+ …\]$/);
  });

  it('A16 read_file refuses a binary file with a sentence', async () => {
    await writeFile(path.join(work, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(await readFileTool.run({ path: 'logo.png' }, toolScope(work), signal)).toEqual({
      ok: false,
      output: 'logo.png is a binary file (it holds NUL bytes); read_file reads text.',
    });
  });

  it('a missing file is a sentence, not an exception', async () => {
    expect(await readFileTool.run({ path: 'nope.md' }, toolScope(work), signal)).toEqual({
      ok: false,
      output: 'No such file or directory: nope.md',
    });
  });

  it('A5: read_skill returns a linked skill body, and names the skills when asked for another', async () => {
    const scope = toolScope(work, 'chat', {
      skills: [
        {
          id: 's',
          workspaceId: 'ws-1',
          name: 'testing',
          description: 'd',
          body: '# Test first',
          createdAt: new Date(0),
        },
      ],
    });
    expect(await readSkillTool.run({ name: 'Testing' }, scope, signal)).toEqual({
      ok: true,
      output: '# Test first',
    });
    expect(await readSkillTool.run({ name: 'deploy' }, scope, signal)).toEqual({
      ok: false,
      output: 'You have no skill named "deploy". Your skills: testing.',
    });
  });
});
