import { ApplicationFlags, REST, Routes } from 'discord.js';
import { type CheckResult, type DoctorCheck, fail, ok, reasonOf } from '../../core/ports/doctor-check';

/** The message-content intent: granted (a verified app) or toggled on (an unverified one). */
const MESSAGE_CONTENT =
  ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited;

const FIX_TOKEN =
  'reset the token in the Discord Developer Portal (your application → Bot → Reset Token) and set DISCORD_TOKEN to it';

/**
 * `summon doctor` for Discord: the bot token (`GET /users/@me`) and the privileged
 * message-content intent Summon needs to read mentions (`GET /applications/@me` flags).
 */
export function discordDoctorCheck(options: { token: string; apiUrl?: string | undefined }): DoctorCheck {
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
    } catch (error) {
      results.push(fail('discord intents', `GET /applications/@me failed (${reasonOf(error)})`, FIX_TOKEN));
    }
    return results;
  };
}
