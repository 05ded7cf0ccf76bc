import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { discoverModel } from '../../../src/adapters/runners/model-discovery';
import { runLocalChat } from '../../../src/app/local-chat';
import { createLogger } from '../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { waitFor } from '../../support/engine-harness';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 9}`;
}

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

describe('A10: a model without configuration', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let bin: string;
  let emptyBin: string;
  let ollama: OpenAiStandIn;
  let nothing: string;

  beforeEach(async () => {
    dir = await makeTempDir();
    // A10 is about the model found, not the database: it starts migrated.
    await seedMigratedDataDir(dir.path);
    bin = path.join(dir.path, 'bin');
    emptyBin = path.join(dir.path, 'empty-bin');
    await mkdir(bin);
    await mkdir(emptyBin);
    // The fake Claude Code, as `claude` on PATH.
    await symlink(path.join(__dirname, '../../support/stand-ins/fake-claude.js'), path.join(bin, 'claude'));
    ollama = await OpenAiStandIn.start({ ollamaTags: ['llama3.2:latest', 'qwen2.5:7b'] });
    nothing = await closedPort();
  });
  afterEach(async () => {
    await ollama.close();
    await dir.remove();
  });

  const models = (env: Record<string, string>) => loadConfig({ SUMMON_DATA_DIR: dir.path, ...env }).models;

  it('A10: looks for ANTHROPIC_API_KEY, then OPENAI_BASE_URL, then Ollama, then a claude CLI on PATH, in that order', async () => {
    const everything = {
      ANTHROPIC_API_KEY: 'sk-ant-api03-discovery',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      SUMMON_OLLAMA_URL: ollama.rootUrl,
      PATH: bin,
    };
    expect(await discoverModel(models(everything))).toEqual({
      kind: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    const { ANTHROPIC_API_KEY: _key, ...noKey } = everything;
    const server = await OpenAiStandIn.start({ models: ['qwen2.5-coder'] });
    try {
      expect(await discoverModel(models({ ...noKey, OPENAI_BASE_URL: server.baseUrl }))).toEqual({
        kind: 'openai',
        baseUrl: server.baseUrl,
        model: 'qwen2.5-coder',
      });
      expect(
        await discoverModel(
          models({ ...noKey, OPENAI_BASE_URL: server.baseUrl, SUMMON_DEFAULT_MODEL: 'mistral-small' }),
        ),
      ).toMatchObject({ kind: 'openai', model: 'mistral-small' });
    } finally {
      await server.close();
    }
    const { OPENAI_BASE_URL: _url, ...local } = noKey;
    expect(await discoverModel(models(local))).toEqual({
      kind: 'ollama',
      url: ollama.rootUrl,
      model: 'llama3.2:latest',
    });
    expect(await discoverModel(models({ ...local, SUMMON_OLLAMA_URL: nothing }))).toEqual({
      kind: 'claude-cli',
      program: path.join(bin, 'claude'),
    });
    expect(await discoverModel(models({ SUMMON_OLLAMA_URL: nothing, PATH: emptyBin }))).toEqual({
      kind: 'none',
    });
  });

  it('A10: an Ollama with no model pulled does not count', async () => {
    const empty = await OpenAiStandIn.start({ ollamaTags: [] });
    try {
      expect(await discoverModel(models({ SUMMON_OLLAMA_URL: empty.rootUrl, PATH: bin }))).toMatchObject({
        kind: 'claude-cli',
      });
    } finally {
      await empty.close();
    }
  });

  it('A10: the local chat says it found Ollama on its first line and answers through its OpenAI-compatible API', async () => {
    ollama.script({ kind: 'stream', deltas: ['Hello ', 'from Ollama.'] });
    const runtime = await openRuntime(
      loadConfig({ SUMMON_DATA_DIR: dir.path, SUMMON_OLLAMA_URL: ollama.rootUrl, PATH: emptyBin }),
      createLogger({ level: 'silent' }),
    );
    try {
      const chat = openChat(runtime);
      await waitFor(async () => chat.screen().includes('Summon · workspace default'));
      chat.type('@engineer hi');
      await waitFor(async () => chat.screen().includes('[1] engineer: Hello from Ollama.'));
      await chat.quit();
      expect(chat.screen().split('\n')[0]).toBe(
        `  · Model: llama3.2:latest on the local Ollama at ${ollama.rootUrl} (found running). ` +
          'Change it with SUMMON_DEFAULT_MODEL, or give an agent its own `adapter` and `model` in the workspace file. ' +
          'Set ANTHROPIC_API_KEY or OPENAI_BASE_URL to use another server.',
      );
      const completion = ollama.requests.find((r) => r.path === '/v1/chat/completions');
      expect(completion?.model).toBe('llama3.2:latest');
    } finally {
      await runtime.close();
    }
  });

  it('A10: with only a claude CLI on PATH, agents run as Claude Code through the command runner (usage stored, O3)', async () => {
    const runtime = await openRuntime(
      loadConfig({ SUMMON_DATA_DIR: dir.path, SUMMON_OLLAMA_URL: nothing, PATH: bin, SUMMON_SANDBOX: 'off' }),
      createLogger({ level: 'silent' }),
    );
    try {
      const chat = openChat(runtime);
      await waitFor(async () => chat.screen().includes('Summon · workspace default'));
      expect(chat.screen().split('\n')[0]).toBe(
        `  · Model: Claude Code (the claude CLI at ${path.join(bin, 'claude')}, through the command runner). ` +
          'Set ANTHROPIC_API_KEY or OPENAI_BASE_URL, or run Ollama, to use a model directly; or give an agent its own `adapter` in the workspace file.',
      );
      const agentDir = runtime.directory.agentDir('default', 'engineer');
      await mkdir(agentDir, { recursive: true });
      await writeFile(
        path.join(agentDir, 'fake-claude-scenario.json'),
        JSON.stringify({ steps: [{ text: 'Answered by Claude Code.' }] }),
      );
      chat.type('@engineer hi');
      await waitFor(async () => chat.screen().includes('[1] engineer: Answered by Claude Code.'));
      await chat.quit();
      const [run] = await (runtime.database.store as SqlStore).transaction((tx) =>
        tx.query<{ usage_model: string; input_tokens: string; cost_usd: string }>(
          'SELECT usage_model, input_tokens::text, cost_usd::text FROM runs',
        ),
      );
      expect(run).toEqual({ usage_model: 'claude-sonnet-4-6', input_tokens: '10', cost_usd: '0.0010000000' });
    } finally {
      await runtime.close();
    }
  });

  it('A10: with nothing found, the local chat says so before the first message, with the ways to fix it', async () => {
    const runtime = await openRuntime(
      loadConfig({ SUMMON_DATA_DIR: dir.path, SUMMON_OLLAMA_URL: nothing, PATH: emptyBin }),
      createLogger({ level: 'silent' }),
    );
    try {
      const chat = openChat(runtime);
      await waitFor(async () => chat.screen().includes('Summon · workspace default'));
      await chat.quit();
      const [first, second] = chat.screen().split('\n');
      expect(first).toBe(
        '  ! No model found: agents cannot answer yet. Fix it one of these ways, then start the chat again: ' +
          'set ANTHROPIC_API_KEY (Anthropic); set OPENAI_BASE_URL to an OpenAI-compatible server (and SUMMON_DEFAULT_MODEL to its model); ' +
          'run Ollama on 127.0.0.1:11434 with a model pulled (`ollama pull llama3.2`); or install and log in to Claude Code (`claude` on PATH).',
      );
      expect(second).toContain('Summon · workspace default · #general · as you');
    } finally {
      await runtime.close();
    }
  });
});
