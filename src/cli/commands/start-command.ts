import type { Command } from 'commander';
import { runLocalChat } from '../../app/local-chat';
import { type RunningServer, startServer } from '../../app/server';
import { parseServeRole } from '../../config/serve-role';
import type { CliContext } from '../cli-context';

export function registerStartCommand(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description(
      'migrate, create the default workspace on first start and serve HTTP, without the terminal chat',
    )
    .option('--concurrency <n>', 'T3: active turns at once in this process (SUMMON_CONCURRENCY, default 64)')
    .option(
      '--role <role>',
      'all (default): HTTP, chat front ends and turns; web: HTTP and front ends, no turns; worker: turns, no front ends (SUMMON_ROLE; web and worker need REDIS_URL)',
    )
    .action(async (options: ServeOptions) => {
      const server = await startServer(withServeOptions(context.env, options), context.cwd);
      if (server.chat === null) server.logger.info({}, noPlatformMessage);
      await untilSignal(server);
    });
  program
    .command('start')
    .description(
      'migrate, create the default workspace on first start and serve HTTP; in a terminal with no chat platform configured, open the local chat (what `npm start` runs)',
    )
    .option('--concurrency <n>', 'T3: active turns at once in this process (SUMMON_CONCURRENCY, default 64)')
    .option(
      '--role <role>',
      'all (default): HTTP, chat front ends and turns; web: HTTP and front ends, no turns; worker: turns, no front ends (SUMMON_ROLE; web and worker need REDIS_URL)',
    )
    .action(async (options: ServeOptions) => {
      const env = withServeOptions(context.env, options);
      // The terminal chat runs its own turns: only a process of the role `all` opens it.
      const chat = process.stdin.isTTY === true && !chatPlatformConfigured(env) && allRoles(env);
      const server = await startServer(env, context.cwd, {
        logToFile: chat,
      });
      if (chat) {
        context.output.out(`Logs: ${server.runtime.config.dataDir}/summon.log · HTTP on port ${server.port}`);
        try {
          await runLocalChat(
            server.runtime,
            { input: process.stdin, output: process.stdout },
            { mcpChat: server.mcpChat },
          );
        } finally {
          await server.close();
        }
        return;
      }
      if (server.chat === null) server.logger.info({}, noPlatformMessage);
      await untilSignal(server);
    });
}

interface ServeOptions {
  concurrency?: string;
  role?: string;
}

/** T3: `--concurrency` wins over SUMMON_CONCURRENCY, `--role` over SUMMON_ROLE; the config checks the values. */
function withServeOptions(env: NodeJS.ProcessEnv, options: ServeOptions): NodeJS.ProcessEnv {
  return {
    ...env,
    ...(options.concurrency === undefined ? {} : { SUMMON_CONCURRENCY: options.concurrency }),
    ...(options.role === undefined ? {} : { SUMMON_ROLE: options.role }),
  };
}

const allRoles = (env: NodeJS.ProcessEnv): boolean => parseServeRole(env.SUMMON_ROLE) === 'all';

const noPlatformMessage =
  'no chat platform is configured (set SLACK_BOT_TOKEN or DISCORD_TOKEN, or run `summon chat` in a terminal); serving HTTP only';

/** Slack and Discord front ends attach when their credentials are set. */
function chatPlatformConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.SLACK_BOT_TOKEN || env.DISCORD_TOKEN);
}

function untilSignal(server: RunningServer): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      server.logger.info({ signal }, 'stopping');
      void server.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
