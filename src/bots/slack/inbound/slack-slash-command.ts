import type { App } from '@slack/bolt';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { CommandService } from '../../../core/ports/command-service';
import type { Logger } from '../../../core/ports/logger';
import { FOREIGN_CHANNEL_NOTICE, isForeignChannel } from './slack-foreign-team';

/**
 * `/summon …`: answered ephemerally (only the sender sees it); the core does the work. A2, P8:
 * said in a channel another team's workspace owns, it runs nothing and the sender is told why.
 */
export function registerSlashCommand(
  app: App,
  deps: { commands: CommandService; directory: ChatDirectory; logger: Logger; now: () => Date },
): void {
  app.command('/summon', async ({ ack, command }) => {
    const log = deps.logger.child({ component: 'slack', command: '/summon', user: command.user_id });
    try {
      const request = { teamId: command.team_id, channel: command.channel_id, what: '/summon' };
      if (await isForeignChannel(deps.directory, request, deps.logger)) {
        await ack({ response_type: 'ephemeral', text: FOREIGN_CHANNEL_NOTICE });
        return;
      }
      const text = await deps.commands.run(command.text, {
        platform: 'slack',
        teamId: command.team_id,
        channelId: command.channel_id,
        userId: command.user_id,
        now: deps.now(),
        // E6: Slack's direct-message channels are the ones whose ids start with D.
        direct: command.channel_id.startsWith('D'),
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
