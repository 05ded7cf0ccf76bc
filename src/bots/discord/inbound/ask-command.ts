import { ApplicationCommandOptionType, type REST, Routes } from 'discord.js';
import { SUMMON_COMMAND } from './summon-command';

/** `/ask agent:<name> prompt:<text>`: `agent` autocompletes the space's agents. */
export const ASK_COMMAND = {
  name: 'ask',
  description: 'Ask one of this space’s agents',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'agent',
      description: 'The agent to ask',
      required: true,
      autocomplete: true,
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'prompt',
      description: 'What to ask',
      required: true,
      max_length: 1900,
    },
  ],
} as const;

/** `/ask` and `/summon`, registered per guild: a guild's commands update at once, global ones take up to an hour. */
export async function registerGuildCommands(
  rest: REST,
  applicationId: string,
  guildId: string,
): Promise<void> {
  await rest.put(Routes.applicationGuildCommands(applicationId, guildId), {
    body: [ASK_COMMAND, SUMMON_COMMAND],
  });
}
