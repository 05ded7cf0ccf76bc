import type { App } from '@slack/bolt';
import type { CommandService } from '../../../core/ports/command-service';
import type { Logger } from '../../../core/ports/logger';

/** `/summon …`: answered ephemerally (only the sender sees it); the core does the work. */
export function registerSlashCommand(
  app: App,
  deps: { commands: CommandService; logger: Logger; now: () => Date },
): void {
  app.command('/summon', async ({ ack, command }) => {
    const log = deps.logger.child({ component: 'slack', command: '/summon', user: command.user_id });
    try {
      const text = await deps.commands.run(command.text, {
        platform: 'slack',
        teamId: command.team_id,
        channelId: command.channel_id,
        userId: command.user_id,
        now: deps.now(),
      });
      await ack({ response_type: 'ephemeral', text });
    } catch (error) {
      log.error({ err: String(error) }, '/summon failed');
      await ack({
        response_type: 'ephemeral',
        text: 'Something went wrong on Summon’s side; try again in a moment.',
      });
    }
  });
}
