import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { MESSAGE_EVENT_TYPES } from '../../../src/bots/slack/inbound/slack-inbound';
import { SUMMON_HELP } from '../../../src/core/commands/summon-commands';

/** slack/manifest.yml asks Slack for what the Slack front end uses, and says what `/summon` takes. */
const root = path.join(__dirname, '../../..');
const manifest = parse(readFileSync(path.join(root, 'slack/manifest.yml'), 'utf8')) as {
  features: { slash_commands: { command: string; usage_hint: string }[] };
  settings: { event_subscriptions: { bot_events: string[] } };
};
const slackDir = path.join(root, 'src/bots/slack');
const slackSource = readdirSync(slackDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(path.join(slackDir, f), 'utf8'))
  .join('\n');

describe('slack/manifest.yml matches the Slack front end', () => {
  it('the /summon usage hint names every subcommand /summon help lists', () => {
    const hint = manifest.features.slash_commands.find((c) => c.command === '/summon')?.usage_hint ?? '';
    const verbs = [...SUMMON_HELP.matchAll(/^• `([a-z-]+)/gm)].map((m) => m[1] ?? '');
    expect(verbs).toContain('while-running');
    expect(verbs.filter((verb) => !hint.split(/[\s|]+/).includes(verb))).toEqual([]);
  });

  it('every event the front end listens to is subscribed (message: channels, private channels, DMs)', () => {
    // T4: messages are taken in ahead of the listeners (`personMessageOf`), the rest by `app.event`.
    const listened = [
      ...MESSAGE_EVENT_TYPES,
      ...[...slackSource.matchAll(/\.event\('([a-z_]+)'/g)].map((m) => m[1] ?? ''),
    ];
    expect(listened).toEqual(expect.arrayContaining(['message', 'app_mention', 'agent_session_stopped']));
    const wanted = listened.flatMap((event) =>
      event === 'message' ? ['message.channels', 'message.groups', 'message.im'] : [event],
    );
    const subscribed = manifest.settings.event_subscriptions.bot_events;
    expect([...new Set(wanted)].filter((event) => !subscribed.includes(event))).toEqual([]);
  });
});
