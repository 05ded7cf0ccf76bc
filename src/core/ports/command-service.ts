import type { BindablePlatform } from '../model/platform';

/** Where a `/summon` command was typed, and by whom, as the platform knows it. */
export interface CommandContext {
  platform: BindablePlatform;
  /** The Slack team / Discord guild. */
  teamId: string;
  channelId: string;
  userId: string;
  now: Date;
  /** E6: typed in a direct message with the bot (`/summon token` answers only there). */
  direct?: boolean;
}

/**
 * The `/summon` command as a front end calls it (the core's `SummonCommands`, built by
 * `src/app`): the text typed after the command, answered with the text to show the sender.
 */
export interface CommandService {
  run(text: string, ctx: CommandContext): Promise<string>;
}
