import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cleanup } from '../core/cleanup';
import { startChild } from './child';
import { type BenchStandIns, SIGNING_SECRET } from './stand-ins';
import type { RunningSummon } from './summon-process';

/** The bare Bolt bot (`bare-bot.ts`) in its own process, on the same stand-ins as Summon. */
export async function startBareBot(standIns: BenchStandIns, cleanup: Cleanup): Promise<RunningSummon> {
  const dir = await mkdtemp(join(tmpdir(), 'summon-bench-bare-'));
  cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const child = await startChild(
    'bench/realpath/bare-bot.ts',
    [],
    {
      SLACK_BOT_TOKEN: standIns.slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: standIns.slackApiUrl,
      ANTHROPIC_API_KEY: standIns.anthropicKey,
      ANTHROPIC_BASE_URL: standIns.anthropic.url,
    },
    join(dir, 'bare-bot.log'),
    '/slack/events',
    cleanup,
  );
  return { ...child, eventsUrl: `http://127.0.0.1:${child.port}/slack/events`, databaseName: null };
}
