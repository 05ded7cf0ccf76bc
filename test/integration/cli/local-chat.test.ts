import { PassThrough } from 'node:stream';
import { runLocalChat } from '../../../src/app/local-chat';
import { createLogger } from '../../../src/app/logger';
import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { waitFor } from '../../support/engine-harness';
import { makeTempDir } from '../../support/temp-dir';

describe('summon chat (the embedded default, as wired for people)', () => {
  it('opens the local chat as member you; with no model configured the turn fails with a sentence, nothing crashes', async () => {
    const dataDir = await makeTempDir();
    const runtime = await openRuntime(
      loadConfig({ SUMMON_DATA_DIR: dataDir.path }),
      createLogger({ level: 'silent' }),
    );
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
    });
    try {
      const chat = runLocalChat(runtime, { input, output });
      input.write('@engineer fix the login bug\n');
      await waitFor(async () => screen.includes('no model runner is configured'));
      input.write('/threads\n');
      input.write('/quit\n');
      await chat;
      expect(screen).toContain('Summon · workspace default · #general · as you');
      expect(screen).toContain('[1] you: @engineer fix the login bug');
      expect(screen).toMatch(
        /\[1\] · engineer's turn failed: engineer cannot answer: no model runner is configured/,
      );
      const agents = await runtime.store.transaction(async (tx) => {
        const workspace = await tx.workspaces.findBySlug('default');
        return workspace === null ? [] : tx.agents.list(workspace.id);
      });
      expect(agents.map((a) => a.name)).toEqual(['ceo', 'qa', 'architect', 'engineer', 'librarian']);

      // A second chat on the same data starts its threads at 1 again without clashing with the first's.
      const again = { input: new PassThrough(), output: new PassThrough() };
      let second = '';
      again.output.on('data', (chunk: Buffer) => {
        second += chunk.toString();
      });
      const chat2 = runLocalChat(runtime, again);
      again.input.write('@qa check the build\n');
      await waitFor(async () => second.includes("qa's turn failed"));
      again.input.write('/quit\n');
      await chat2;
      expect(second).toContain('[1] you: @qa check the build');
      expect(second).not.toContain('not delivered');
    } finally {
      await runtime.close();
      await dataDir.remove();
    }
  });
});
