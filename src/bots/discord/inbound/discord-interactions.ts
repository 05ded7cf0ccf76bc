import {
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  MessageFlags,
} from 'discord.js';
import { FORM_NO_LONGER_ACTIVE, NO_LONGER_ACTIVE } from '../../../core/commands/unknown-interaction';
import type { ChatEngine, PlatformActor } from '../../../core/ports/chat-engine';
import type { Logger } from '../../../core/ports/logger';
import type { DiscordDirectory } from '../discord-directory';
import { loggable } from '../discord-errors';
import type { DiscordPlatform } from '../discord-platform';
import { encodeDiscordThreadId } from '../discord-thread-id';
import { cardActionOf, decodeCustomId } from '../outbound/custom-id';
import { runSummonCommand, type SummonCommandDeps } from './summon-command';

export const unknownCommand = (name: string) =>
  `Summon does not know /${name}: its commands are \`/summon\` and \`/ask\`.`;

/** Discord's limit for autocomplete choices. */
const CHOICES = 25;

export interface DiscordInteractionsDeps {
  engine: ChatEngine;
  platform: DiscordPlatform;
  directory: DiscordDirectory;
  logger: Logger;
  /** `/summon`: the shared command service. */
  summon: SummonCommandDeps;
}

/**
 * Buttons (N7 notes, G4 approvals, N13 question options, P15 Stop), `/ask` and its autocomplete, and
 * `/summon`. Every interaction is answered within Discord's 3 seconds: clicks and `/ask` are
 * deferred before the core runs; `/summon` when its answer is slow.
 */
export class DiscordInteractions {
  constructor(private readonly deps: DiscordInteractionsDeps) {}

  async handle(interaction: Interaction): Promise<void> {
    try {
      if (interaction.isButton()) await this.button(interaction);
      else if (interaction.isAutocomplete()) await this.autocomplete(interaction);
      else if (interaction.isChatInputCommand() && interaction.commandName === 'ask')
        await this.ask(interaction);
      else if (interaction.isChatInputCommand() && interaction.commandName === 'summon')
        await runSummonCommand(interaction, this.deps.summon);
      else await this.unknown(interaction);
    } catch (error) {
      this.deps.logger.error(
        { err: loggable(error), interactionId: interaction.id },
        'a Discord interaction failed',
      );
      if (interaction.isRepliable() && (interaction.deferred || interaction.replied)) {
        await interaction
          .followUp({ content: 'Something went wrong; nothing was changed.', flags: MessageFlags.Ephemeral })
          .catch(() => undefined);
      }
    }
  }

  /** N7, G4: the card is edited by the core; a refusal is told only to the clicker (P5). */
  private async button(interaction: ButtonInteraction): Promise<void> {
    const button = decodeCustomId(interaction.customId);
    if (button === null) {
      await this.unknown(interaction);
      return;
    }
    await interaction.deferUpdate();
    // P1: a card in a direct message belongs to the workspace of the DM space.
    const guild =
      interaction.guildId ??
      (await this.deps.directory.guildOfDirectMessage(interaction.channelId, interaction.user.id, []));
    if (guild === null) return;
    // N7: a note's card is edited by the core. N13: the engine checks who may answer. P15: who
    // may stop (the starter, owners, admins, approvers). G4: who may approve.
    const result = await this.deps.engine.act(cardActionOf(button), this.actor(guild, interaction.user.id));
    if (result.ok) return;
    this.deps.logger.info({ button: button.kind, reason: result.reason }, 'a button click was refused');
    await interaction.followUp({ content: result.reason, flags: MessageFlags.Ephemeral });
  }

  /**
   * P17: a button of a card from an older version, a command Discord still shows after it was
   * removed, a form or menu Summon does not know: answered at once, only to the person.
   */
  private async unknown(interaction: Interaction): Promise<void> {
    const what = interaction.isCommand()
      ? { kind: 'command', name: interaction.commandName }
      : interaction.isMessageComponent() || interaction.isModalSubmit()
        ? { kind: 'component', name: interaction.customId }
        : { kind: 'interaction', name: String(interaction.type) };
    this.deps.logger.info(what, 'an interaction Summon does not know');
    if (!interaction.isRepliable()) return;
    await interaction.reply({
      content:
        what.kind === 'command'
          ? unknownCommand(what.name)
          : interaction.isModalSubmit()
            ? FORM_NO_LONGER_ACTIVE
            : NO_LONGER_ACTIVE,
      flags: MessageFlags.Ephemeral,
    });
  }

  /** The space's agents whose name or title contains what was typed. */
  private async autocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const focused = interaction.options.getFocused(true);
    const place = this.channelOf(interaction);
    if (focused.name !== 'agent' || place === null) {
      await interaction.respond([]);
      return;
    }
    const typed = focused.value.toLowerCase();
    const agents = await this.deps.directory.agentsOfChannel(place.guild, place.channel);
    // Names that start with what was typed, then names and titles that contain it.
    const rank = (a: { name: string; title: string }) => {
      const name = a.name.toLowerCase();
      if (name.startsWith(typed)) return 0;
      return name.includes(typed) || a.title.toLowerCase().includes(typed) ? 1 : 2;
    };
    const matching = agents
      .map((agent, order) => ({ agent, order, rank: rank(agent) }))
      .filter((a) => a.rank < 2)
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map((a) => a.agent);
    await interaction.respond(
      matching.slice(0, CHOICES).map((a) => ({
        name: (a.title === '' ? a.name : `${a.name} — ${a.title}`).slice(0, 100),
        value: a.name,
      })),
    );
  }

  /**
   * `/ask`: the answer to the command becomes the summoning message, so the conversation's
   * thread starts from it, as from a message that mentions the agent.
   */
  private async ask(interaction: ChatInputCommandInteraction): Promise<void> {
    const place = this.channelOf(interaction);
    if (place === null) {
      await interaction.reply({
        content: '`/ask` works in a server channel.',
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    if (!(await this.deps.directory.isBoundChannel(place.guild, place.channel))) {
      await interaction.reply({
        content: 'This channel is not linked to a space. An admin can link it with `/summon link <space>`.',
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    await interaction.deferReply();
    const agent = interaction.options.getString('agent', true).replace(/^@/, '');
    const prompt = interaction.options.getString('prompt', true);
    const text = `@${agent} ${prompt}`;
    const shown = await interaction.editReply({
      content: `<@${interaction.user.id}> asked: ${text}`.slice(0, 2000),
      allowedMentions: { parse: [] },
    });
    const thread = place.inThread ?? shown.id;
    if (place.inThread === null) this.deps.platform.nameThread(thread, text);
    else this.deps.platform.knowThread(thread);
    await this.deps.engine.receive({
      platform: 'discord',
      eventId: interaction.id,
      workspace: { platform: 'discord', externalId: place.guild },
      channelId: place.channel,
      thread: encodeDiscordThreadId({ guild: place.guild, channel: place.channel, thread }),
      topLevel: place.inThread === null,
      messageRef: shown.id,
      senderId: interaction.user.id,
      text,
      receivedAt: interaction.createdAt,
    });
  }

  private channelOf(
    interaction: AutocompleteInteraction | ChatInputCommandInteraction,
  ): { guild: string; channel: string; inThread: string | null } | null {
    const channel = interaction.channel;
    if (interaction.guildId === null || channel === null) return null;
    if (channel.isThread()) {
      return channel.parentId === null
        ? null
        : { guild: interaction.guildId, channel: channel.parentId, inThread: channel.id };
    }
    return { guild: interaction.guildId, channel: channel.id, inThread: null };
  }

  private actor(guildId: string, userId: string): PlatformActor {
    return { platform: 'discord', workspace: { platform: 'discord', externalId: guildId }, senderId: userId };
  }
}
