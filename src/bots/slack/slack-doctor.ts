import { webApi } from '@slack/bolt';
import { type CheckResult, type DoctorCheck, fail, ok, reasonOf } from '../../core/ports/doctor-check';
import type { SlackCredentials } from './slack-front-end';

/** Slack's error code from a Web API error, when it has one. */
const slackError = (error: unknown): string =>
  (error as { data?: { error?: string } }).data?.error ?? reasonOf(error);

/**
 * `summon doctor` for Slack: the bot token (`auth.test`: valid, a bot's) and, for Socket Mode,
 * the app token (`apps.connections.open`: may open a connection; the URL it returns is not used).
 */
export function slackDoctorCheck(credentials: SlackCredentials): DoctorCheck {
  const options = {
    ...(credentials.apiUrl === undefined ? {} : { slackApiUrl: credentials.apiUrl }),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: webApi.LogLevel.ERROR,
  };
  return async () => {
    const results: CheckResult[] = [];
    try {
      const auth = await new webApi.WebClient(credentials.botToken, options).auth.test();
      results.push(
        auth.bot_id === undefined
          ? fail(
              'slack bot token',
              'SLACK_BOT_TOKEN is not a bot token (auth.test named no bot)',
              'use the Bot User OAuth Token (xoxb-…) from the app’s OAuth & Permissions page',
            )
          : ok(
              'slack bot token',
              `bot ${auth.user ?? auth.user_id ?? ''} in team ${auth.team ?? auth.team_id ?? ''}`,
            ),
      );
    } catch (error) {
      results.push(
        fail(
          'slack bot token',
          `auth.test refused SLACK_BOT_TOKEN (${slackError(error)})`,
          'copy the Bot User OAuth Token again from the app’s OAuth & Permissions page (reinstall the app if it was revoked)',
        ),
      );
    }
    if (credentials.appToken === undefined) {
      results.push(ok('slack app token', 'not set: Slack delivers events over HTTP to /slack/events'));
      return results;
    }
    try {
      await new webApi.WebClient(credentials.appToken, options).apps.connections.open();
      results.push(ok('slack app token', 'Socket Mode connections can be opened'));
    } catch (error) {
      results.push(
        fail(
          'slack app token',
          `apps.connections.open refused SLACK_APP_TOKEN (${slackError(error)})`,
          'create an app-level token with the connections:write scope (Basic Information → App-Level Tokens) and turn Socket Mode on',
        ),
      );
    }
    return results;
  };
}
