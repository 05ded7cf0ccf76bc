import { type RunningServer, startServer } from '../../src/app/server';
import type { MemberRole } from '../../src/core/model/member';
import type { MemberRecord } from '../../src/core/model/records';
import { BOT_USER, CHANNEL, deliver, eventFrom, SIGNING_SECRET, TEAM } from './slack-delivery';
import { AnthropicStandIn } from './stand-ins/anthropic-stand-in';
import { DiscordOAuthStandIn } from './stand-ins/discord/discord-oauth';
import { SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase, type TestDatabase } from './test-database';

const ANTHROPIC_KEY = 'sk-ant-api03-CONSOLE-WORLD-7f3e';
export const SLACK_CLIENT = { clientId: '1111.2222', clientSecret: 'slack-console-client-secret-0123' };
export const DISCORD_CLIENT = { clientId: '987654321098765432', clientSecret: 'discord-console-secret-4567' };

/** The people of the world: Slack user ids and roles. */
export const PEOPLE = {
  ada: { slack: 'U0ADA00001', discord: '111111111111111111', role: 'approver' },
  mo: { slack: 'U0MO000001', discord: null, role: 'member' },
  vic: { slack: 'U0VIC00001', discord: null, role: 'viewer' },
} as const satisfies Record<string, { slack: string; discord: string | null; role: MemberRole }>;
export type Person = keyof typeof PEOPLE;

/** A browser-less session: the cookie header to send and the page's CSRF token. */
export interface SignedIn {
  cookie: string;
  csrf: string;
}

/**
 * O5: Summon's server as wired (`startServer`), its Slack front end on the Web API stand-in
 * (with "Sign in with Slack" on it), Discord's OAuth2 stand-in, a model stand-in, PostgreSQL;
 * the default workspace bound to the Slack team, `#general` to space `general`, and the
 * members of `PEOPLE`.
 */
export async function openConsoleWorld(options: { env?: NodeJS.ProcessEnv } = {}) {
  const slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
  const slackUrl = await slack.listen();
  const discord = await new DiscordOAuthStandIn().start();
  const anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
  const db: TestDatabase = await openTestDatabase('postgres');
  await db.database.close();
  const dataDir = await makeTempDir();
  const env: NodeJS.ProcessEnv = {
    PORT: '0',
    DATABASE_URL: db.databaseUrl,
    SUMMON_DATA_DIR: dataDir.path,
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slackUrl,
    SLACK_CLIENT_ID: SLACK_CLIENT.clientId,
    SLACK_CLIENT_SECRET: SLACK_CLIENT.clientSecret,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_CLIENT_ID: DISCORD_CLIENT.clientId,
    DISCORD_CLIENT_SECRET: DISCORD_CLIENT.clientSecret,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: anthropic.url,
    SUMMON_DEFAULT_MODEL: 'claude-sonnet-4-6',
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  const server: RunningServer = await startServer(env, process.cwd());
  const base = `http://127.0.0.1:${server.port}`;
  slack.oidc.apps.push({ ...SLACK_CLIENT, redirectUri: `${base}/console/auth/slack/callback` });
  discord.apps.push({ ...DISCORD_CLIENT, redirectUri: `${base}/console/auth/discord/callback` });
  const { store } = server.runtime;
  const members = await store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug('default');
    if (workspace === null) throw new Error('no default workspace');
    await tx.platformBindings.bind(workspace.id, 'slack', TEAM);
    const space = await tx.spaces.insert(workspace.id, {
      name: 'general',
      context: '',
      mode: 'chat',
      autonomy: 'actWithApproval',
      dedicated: false,
      whileRunning: 'steer',
      repos: [],
    });
    const agents = await tx.agents.list(workspace.id);
    await tx.spaces.setParticipants(
      space.id,
      agents.map((a) => ({ kind: 'agent' as const, agentId: a.id })),
    );
    await tx.channelBindings.bind(space.id, 'slack', CHANNEL);
    const made = new Map<Person, MemberRecord>();
    for (const [nickname, person] of Object.entries(PEOPLE) as [Person, (typeof PEOPLE)[Person]][]) {
      made.set(
        nickname,
        await tx.members.insert(workspace.id, {
          nickname,
          role: person.role,
          slackUserId: person.slack,
          discordUserId: person.discord,
        }),
      );
    }
    return { workspace, space, made };
  });

  /** A person mentions the bot in `#general`, starting a thread; its ts. */
  const mention = async (person: Person, text: string): Promise<string> => {
    const ts = slack.addPersonMessage(CHANNEL, null, { user: PEOPLE[person].slack, text });
    const event = eventFrom(
      'app-mention',
      { ts, user: PEOPLE[person].slack, text: `<@${BOT_USER}> ${text}` },
      `Ev${ts}`,
    );
    const delivered = await deliver(`${base}/slack/events`, event);
    if (delivered.status !== 200) throw new Error(`the mention was answered ${delivered.status}`);
    return ts;
  };

  return {
    /** The environment the server started with (for `summon …` against the same database). */
    env,
    slack,
    discord,
    anthropic,
    server,
    base,
    store,
    workspace: members.workspace,
    space: members.space,
    members: members.made,
    mention,
    /** Signs in over HTTP as a Slack user (the whole OpenID Connect round trip). */
    signInWithSlack: (userId: string, teamId = TEAM) => signInOverHttp(base, slack, userId, teamId),
    async close() {
      await server.close();
      await anthropic.close();
      await discord.close();
      await slack.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type ConsoleWorld = Awaited<ReturnType<typeof openConsoleWorld>>;

/** The `name=value` of each `Set-Cookie` of a response. */
export const cookiesOf = (response: Response): string[] =>
  response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');

/** The CSRF token a console page's forms carry. */
export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/**
 * "Sign in with Slack" over plain HTTP, as a browser would follow it: Summon's redirect (and
 * its attempt cookie), the stand-in's authorization page, the callback. Returns the last
 * response and, when a session began, the cookie and the CSRF token.
 */
export async function signInOverHttp(
  base: string,
  slack: SlackWebApiStandIn,
  userId: string,
  teamId: string,
): Promise<{ callback: Response; session: SignedIn | null }> {
  slack.oidc.browserUser = { userId, teamId, name: userId };
  const start = await fetch(`${base}/console/auth/slack`, { redirect: 'manual' });
  const attempt = cookiesOf(start).join('; ');
  const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
  const callbackUrl = authorize.headers.get('location') ?? '';
  const callback = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: attempt } });
  const session = cookiesOf(callback).find((c) => c.startsWith('summon_console='));
  if (callback.status !== 303 || session === undefined) return { callback, session: null };
  const page = await fetch(`${base}/console`, { headers: { cookie: session } });
  return { callback, session: { cookie: session, csrf: csrfOf(await page.text()) } };
}
