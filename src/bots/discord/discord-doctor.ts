import { ApplicationFlags, REST, Routes } from 'discord.js';
import { type CheckResult, type DoctorCheck, fail, ok, reasonOf } from '../../core/ports/doctor-check';

/** The message-content intent: granted (a verified app) or toggled on (an unverified one). */
const MESSAGE_CONTENT =
  ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited;

/** P24: the Server Members intent, granted (a verified app) or toggled on (an unverified one). */
const GUILD_MEMBERS = ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;

const FIX_TOKEN =
  'reset the token in the Discord Developer Portal (your application → Bot → Reset Token) and set DISCORD_TOKEN to it';

/**
 * `summon doctor` for Discord: the bot token (`GET /users/@me`) and the privileged
 * message-content intent Summon needs to read mentions (`GET /applications/@me` flags); and,
 * when a workspace admits people by Discord role (P24, `members`), the Server Members intent.
 */
export function discordDoctorCheck(options: {
  token: string;
  apiUrl?: string | undefined;
  members?: boolean;
}): DoctorCheck {
  return async () => {
    const rest = new REST({
      retries: 0,
      ...(options.apiUrl === undefined ? {} : { api: options.apiUrl }),
    }).setToken(options.token);
    const results: CheckResult[] = [];
    try {
      const me = (await rest.get(Routes.user('@me'))) as { username?: string; bot?: boolean };
      if (me.bot !== true) return [fail('discord token', 'DISCORD_TOKEN is not a bot’s token', FIX_TOKEN)];
      results.push(ok('discord token', `bot ${me.username ?? ''}`));
    } catch (error) {
      return [fail('discord token', `Discord refused DISCORD_TOKEN (${reasonOf(error)})`, FIX_TOKEN)];
    }
    try {
      const application = (await rest.get(Routes.currentApplication())) as { flags?: number };
      results.push(
        ((application.flags ?? 0) & MESSAGE_CONTENT) !== 0
          ? ok('discord intents', 'the message-content intent is on')
          : fail(
              'discord intents',
              'the privileged message-content intent is off: Summon cannot read what people write',
              'turn on Message Content Intent in the Discord Developer Portal (your application → Bot → Privileged Gateway Intents)',
            ),
      );
      if (options.members === true) results.push(membersIntent(application.flags ?? 0));
    } catch (error) {
      results.push(fail('discord intents', `GET /applications/@me failed (${reasonOf(error)})`, FIX_TOKEN));
    }
    return results;
  };
}

/** P24: role changes arrive live (GUILD_MEMBER_UPDATE) only with the Server Members intent. */
function membersIntent(flags: number): CheckResult {
  return (flags & GUILD_MEMBERS) !== 0
    ? ok('discord members intent', 'the server-members intent is on (access by Discord role)')
    : fail(
        'discord members intent',
        'a workspace admits people by Discord role (access) but the privileged server-members intent is off: Discord refuses the connection',
        'turn on Server Members Intent in the Discord Developer Portal (your application → Bot → Privileged Gateway Intents)',
      );
}
