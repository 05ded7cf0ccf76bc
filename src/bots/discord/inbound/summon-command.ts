import { ApplicationCommandOptionType, type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { CommandService } from '../../../core/ports/command-service';
import type { Logger } from '../../../core/ports/logger';
import { loggable } from '../discord-errors';

const text = (name: string, description: string) => ({
  type: ApplicationCommandOptionType.String,
  name,
  description,
  required: true,
});
type TextOption = ReturnType<typeof text> & { choices?: { name: string; value: string }[] };
const sub = (name: string, description: string, options: TextOption[] = []) => ({
  type: ApplicationCommandOptionType.Subcommand,
  name,
  description,
  options,
});

/**
 * `/summon <subcommand>`: the shared command service's verbs as Discord subcommands, so
 * Discord shows each with its own options.
 */
export const SUMMON_COMMAND = {
  name: 'summon',
  description: 'Summon: link channels and accounts, see agents and status',
  options: [
    sub('help', 'What /summon can do'),
    sub('link', 'Link this channel to a space (owners and admins)', [text('space', 'The space’s name')]),
    sub('unlink', 'Unlink this channel (owners and admins)'),
    sub('agents', 'The agents and what they are doing'),
    sub('status', 'Turns in progress and approvals waiting'),
    sub('link-account', 'Link your Discord account with the code an admin gave you', [
      text('code', 'The one-time code'),
    ]),
    sub('dedicated', 'Answer every message here, without a mention (owners and admins)', [
      {
        ...text('mode', 'on or off'),
        choices: [
          { name: 'on', value: 'on' },
          { name: 'off', value: 'off' },
        ],
      },
    ]),
    // P16: whether a message while an agent works joins its turn.
    sub('while-running', 'A message while an agent works joins its turn, or waits (owners and admins)', [
      {
        ...text('mode', 'steer or queue'),
        choices: [
          { name: 'steer', value: 'steer' },
          { name: 'queue', value: 'queue' },
        ],
      },
    ]),
  ],
} as const;

/** The options each subcommand passes on, in the order the command service reads them. */
const ARGUMENTS: Record<string, readonly string[]> = {
  link: ['space'],
  'link-account': ['code'],
  dedicated: ['mode'],
  'while-running': ['mode'],
};

/** Discord drops an interaction not answered within 3 seconds; a slower answer is deferred first. */
export const DEFER_AFTER_MS = 2000;
const FAILED = 'Something went wrong on Summon’s side; try again in a moment.';

export interface SummonCommandDeps {
  commands: CommandService;
  logger: Logger;
  now: () => Date;
  deferAfterMs?: number;
}

/**
 * `/summon …` on Discord: answered only to the sender (ephemeral) with the shared command
 * service's text (P8: it checks the sender's role). An answer that takes longer than
 * `deferAfterMs` is deferred (ephemeral "thinking") and then filled in.
 */
export async function runSummonCommand(
  interaction: ChatInputCommandInteraction,
  deps: SummonCommandDeps,
): Promise<void> {
  if (interaction.guildId === null) {
    await interaction.reply({
      content: '`/summon` works in a server channel.',
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  const verb = interaction.options.getSubcommand(true);
  const args = (ARGUMENTS[verb] ?? []).map((name) => interaction.options.getString(name, true));
  const log = deps.logger.child({ command: '/summon', verb, user: interaction.user.id });
  const answer = deps.commands
    .run([verb, ...args].join(' '), {
      platform: 'discord',
      teamId: interaction.guildId,
      channelId: interaction.channelId,
      userId: interaction.user.id,
      now: deps.now(),
    })
    .then(discordMarkdown)
    .catch((error: unknown) => {
      log.error({ err: loggable(error) }, '/summon failed');
      return FAILED;
    });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deps.deferAfterMs ?? DEFER_AFTER_MS);
  });
  const quick = await Promise.race([answer, late]);
  clearTimeout(timer);
  if (quick !== null) {
    await interaction.reply({
      content: clip(quick),
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
    return;
  }
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await interaction.editReply({ content: clip(await answer), allowedMentions: { parse: [] } });
}

/** The command service writes `*bold*` (Slack's mrkdwn); Discord's bold is `**bold**`. */
export const discordMarkdown = (answer: string): string => answer.replace(/\*([^*\n]+)\*/g, '**$1**');

const clip = (content: string) => (content.length <= 2000 ? content : `${content.slice(0, 1999)}…`);
