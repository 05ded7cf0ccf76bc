import type { Command } from 'commander';
import { startServer } from '../../app/server';
import type { CliContext } from '../cli-context';

export function registerStartCommand(program: Command, context: CliContext): void {
  program
    .command('start')
    .description('migrate, make sure the default workspace exists, and serve (what `npm start` runs)')
    .action(async () => {
      const server = await startServer(context.env, context.cwd);
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          server.logger.info({ signal }, 'stopping');
          void server.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
