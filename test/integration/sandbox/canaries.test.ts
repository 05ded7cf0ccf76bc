import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { createLogger } from '../../../src/app/logger';
import { createTurnTools } from '../../../src/app/turn-tools';
import { ENGINE_SETUPS, type EngineHarness, openEngineHarness } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

/** Planted where no run may look: Summon's environment, its data folder, its database. */
const CANARY = {
  env: 'canary-summon-env-6b2f9e1d',
  dataFolder: 'canary-data-folder-c3a7',
  database: 'canary-database-row-58d1',
  hostProcess: 'canary-host-process-0e94',
};
const API_KEY = 'sk-ant-api03-canaries-test-key';

/**
 * X1 end to end: a turn of the built-in harness whose model tries to read every canary through
 * `bash`. None may show in a run's output (the tool results), a model request, a chat post or a
 * log, while the turn's legitimate work succeeds and its output does reach the model.
 */
describe('planted canaries never leave their place (X1)', () => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;
  let logs = '';
  const holder = spawn('sleep', ['300'], { env: { SUMMON_SECRET: CANARY.hostProcess }, stdio: 'ignore' });

  beforeAll(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: API_KEY });
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const summonEnv = {
      ...process.env,
      GITHUB_TOKEN: CANARY.env,
      SLACK_BOT_TOKEN: CANARY.env,
      DATABASE_URL: `postgres://summon:${CANARY.env}@127.0.0.1:5432/summon`,
    };
    h = await openEngineHarness(
      ENGINE_SETUPS[0],
      new AnthropicRunner({
        apiKey: API_KEY,
        baseUrl: anthropic.url,
        defaultModel: 'claude-sonnet-4-6',
        maxRetries: 0,
      }),
      {},
      {
        tools: createTurnTools(summonEnv),
        logger: createLogger({ level: 'debug', destination: logStream }),
      },
    );
    await writeFile(path.join(h.dataDir, 'secret.txt'), CANARY.dataFolder);
    const qa = await h.agentId('qa');
    await h.read((tx) => tx.agents.update(qa, { systemPrompt: CANARY.database }));
  });
  afterAll(async () => {
    holder.kill('SIGKILL');
    await h.close();
    await anthropic.close();
  });

  it('X1: bash reads for the canaries find nothing; the legitimate output reaches the model; nothing leaks anywhere', async () => {
    const qaDir = h.agentDir('qa');
    const command = [
      'echo legit-work > notes.txt && cat notes.txt',
      'cat /proc/[0-9]*/environ | tr "\\0" "\\n"',
      `cat /proc/${process.pid}/environ /proc/${holder.pid}/environ`,
      `cat ${path.join(h.dataDir, 'secret.txt')}`,
      `ls -R ${h.dataDir}`,
      `grep -rs canary ${h.dataDir} ${qaDir} /tmp /sandbox /etc`,
      'env',
      'true',
    ].join('; ');
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'bash', input: { command } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Done looking.'] }] },
    );
    await h.type('@engineer look around');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    const requests = JSON.stringify(anthropic.requests.map((r) => r.body));
    expect(requests).toContain('legit-work');
    expect(requests).toContain('HOME=/sandbox/home');
    const chat = JSON.stringify(h.thread(1));
    expect(chat).toContain('Done looking.');
    expect(logs).toContain('turn finished');
    for (const [where, text] of [
      ['a model request', requests],
      ['a chat post', chat],
      ['a log', logs],
      ['the screen', h.screen()],
    ] as const) {
      for (const canary of Object.values(CANARY)) {
        if (text.includes(canary)) throw new Error(`the canary ${canary} showed in ${where}`);
      }
    }
  }, 60_000);
});
