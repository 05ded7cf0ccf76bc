import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { createTurnTools } from '../../../src/app/turn-tools';
import {
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
} from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-CODING-TOOLS-SECRET-3b9e';

describe.each(ENGINE_SETUPS)('A16 coding tools in a built-in turn on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    const runner = new AnthropicRunner({
      apiKey: ANTHROPIC_KEY,
      baseUrl: anthropic.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
    h = await openEngineHarness(
      setup,
      runner,
      {},
      { tools: createTurnTools({ PATH: process.env.PATH ?? '' }, {}) },
    );
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  const statusRows = () =>
    h
      .thread(1)
      .flatMap((e) =>
        e.kind === 'posted' && e.message.content.kind === 'status' ? e.message.content.card.rows : [],
      );
  const resultsOf = (index: number): string => {
    const body = anthropic.requests[index]?.body as { messages: unknown[] } | undefined;
    if (body === undefined) throw new Error(`no request ${index}`);
    return JSON.stringify(body.messages.at(-1));
  };

  it('A16 search, glob and a read_file range, then edit_file: the file really changes and each call has its row', async () => {
    const dir = h.agentDir('engineer');
    await mkdir(path.join(dir, 'src'), { recursive: true });
    await writeFile(path.join(dir, '.gitignore'), 'build/\n');
    await writeFile(
      path.join(dir, 'src/config.ts'),
      'export const retries = 3;\n// TODO raise the timeout\nexport const timeout = 5;\n',
    );
    await mkdir(path.join(dir, 'build'), { recursive: true });
    await writeFile(path.join(dir, 'build/config.js'), '// TODO stale copy\n');
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'search', input: { pattern: 'TODO' } },
          { type: 'tool_use', name: 'glob', input: { pattern: '**/*.ts' } },
          { type: 'tool_use', name: 'read_file', input: { path: 'src/config.ts', offset: 3, limit: 1 } },
        ],
      },
      {
        kind: 'stream',
        blocks: [
          {
            type: 'tool_use',
            name: 'edit_file',
            input: { path: 'src/config.ts', old_string: 'timeout = 5;', new_string: 'timeout = 30;' },
          },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Raised the timeout.'] }] },
    );
    await h.type('@engineer raise the timeout');
    await h.settled(1);
    const first = resultsOf(1);
    expect(first).toContain('src/config.ts:2: // TODO raise the timeout');
    expect(first).not.toContain('stale copy');
    expect(first).toContain('     3\\texport const timeout = 5;');
    expect(resultsOf(2)).toContain('Edited src/config.ts: replaced 1 occurrence.');
    expect(await readFile(path.join(dir, 'src/config.ts'), 'utf8')).toBe(
      'export const retries = 3;\n// TODO raise the timeout\nexport const timeout = 30;\n',
    );
    expect(statusRows()).toEqual([
      '✓ search: TODO',
      '✓ glob: **/*.ts',
      '✓ read_file: src/config.ts',
      '✓ edit_file: src/config.ts',
    ]);
  });
});
