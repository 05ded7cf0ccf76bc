import { PassThrough } from 'node:stream';
import { runLocalChat } from '../../../src/app/local-chat';
import { createLogger } from '../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

/** A chat session on the runtime as `summon chat` wires it: type lines, read the screen. */
function openChat(runtime: Runtime) {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const done = runLocalChat(runtime, { input, output });
  return {
    type: (line: string) => input.write(`${line}\n`),
    screen: () => screen,
    quit: async () => {
      input.write('/quit\n');
      await done;
    },
  };
}

describe('summon chat (the embedded default, as wired for people)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dataDir = await makeTempDir();
    // The chat's behaviour, not making its database: it starts migrated.
    await seedMigratedDataDir(dataDir.path);
  });
  afterEach(() => dataDir.remove());

  it('with no model configured, a turn fails with a sentence saying how to configure one; nothing crashes', async () => {
    const runtime = await openRuntime(
      loadConfig({ SUMMON_DATA_DIR: dataDir.path }),
      createLogger({ level: 'silent' }),
    );
    try {
      const chat = openChat(runtime);
      chat.type('@engineer fix the login bug');
      await waitFor(async () => chat.screen().includes('set ANTHROPIC_API_KEY'));
      await chat.quit();
      expect(chat.screen()).toContain('Summon · workspace default · #general · as you');
      expect(chat.screen()).toContain('[1] you: @engineer fix the login bug');
      expect(chat.screen()).toMatch(
        /\[1\] · engineer's turn failed: engineer cannot answer: no model is configured/,
      );

      // A second chat on the same data starts its threads at 1 again without clashing with the first's.
      const again = openChat(runtime);
      again.type('@qa check the build');
      await waitFor(async () => again.screen().includes("qa's turn failed"));
      await again.quit();
      expect(again.screen()).toContain('[1] you: @qa check the build');
      expect(again.screen()).not.toContain('not delivered');
    } finally {
      await runtime.close();
    }
  });

  it('A10: with ANTHROPIC_API_KEY the built-in runner answers; the key reaches neither the chat nor the prompt', async () => {
    const key = 'sk-ant-test-key-never-shown';
    const standIn = await AnthropicStandIn.start({
      apiKey: key,
      reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['The login bug ', 'is fixed.'] }] }),
    });
    const runtime = await openRuntime(
      loadConfig({
        SUMMON_DATA_DIR: dataDir.path,
        ANTHROPIC_API_KEY: key,
        ANTHROPIC_BASE_URL: standIn.url,
        SUMMON_DEFAULT_MODEL: 'claude-sonnet-4-6',
      }),
      createLogger({ level: 'silent' }),
    );
    try {
      const chat = openChat(runtime);
      chat.type('@engineer fix the login bug');
      await waitFor(async () => chat.screen().includes('[1] engineer: The login bug is fixed.'));
      await chat.quit();
      expect(chat.screen()).not.toContain(key);
      const [request] = standIn.requests;
      const body = JSON.stringify(request?.body ?? {});
      expect(body).toContain('fix the login bug');
      expect(body).toContain('claude-sonnet-4-6');
      expect(body).not.toContain(key);
    } finally {
      await runtime.close();
      await standIn.close();
    }
  });
});
