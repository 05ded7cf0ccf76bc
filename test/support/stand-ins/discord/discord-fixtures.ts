import { readFileSync } from 'node:fs';
import path from 'node:path';
import { schema } from './discord-rules';

/**
 * The recorded, anonymised gateway payloads of `test/fixtures/discord/` (see its README): the
 * stand-in dispatches these, filled in with each test's ids, people and text, so what discord.js
 * receives has the shape Discord sends, not a shape the stand-in made up.
 */
export const FIXTURES = {
  ready: { event: 'READY', type: 'GatewayReadyDispatchData' },
  'guild-create': { event: 'GUILD_CREATE', type: 'GatewayGuildCreateDispatchData' },
  'message-create-guild': { event: 'MESSAGE_CREATE', type: 'GatewayMessageCreateDispatchData' },
  'message-create-thread': { event: 'MESSAGE_CREATE', type: 'GatewayMessageCreateDispatchData' },
  'message-create-webhook': { event: 'MESSAGE_CREATE', type: 'GatewayMessageCreateDispatchData' },
  'message-create-dm': { event: 'MESSAGE_CREATE', type: 'GatewayMessageCreateDispatchData' },
  'interaction-button': { event: 'INTERACTION_CREATE', type: 'APIMessageComponentButtonInteraction' },
  'interaction-command': { event: 'INTERACTION_CREATE', type: 'APIChatInputApplicationCommandInteraction' },
  'interaction-autocomplete': {
    event: 'INTERACTION_CREATE',
    type: 'APIApplicationCommandAutocompleteInteraction',
  },
} as const;

export type FixtureName = keyof typeof FIXTURES;
type Json = Record<string, unknown>;

export const FIXTURE_DIR = path.join(__dirname, '..', '..', '..', 'fixtures', 'discord');

const loaded = new Map<FixtureName, Json>();

/** A fresh copy of a fixture, as recorded. */
export function fixture(name: FixtureName): Json {
  let found = loaded.get(name);
  if (found === undefined) {
    found = JSON.parse(readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8')) as Json;
    loaded.set(name, found);
  }
  return structuredClone(found);
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fixture with a test's values laid over it: objects merge key by key, anything else
 * (arrays included) is replaced, and a value `undefined` removes the recorded field.
 */
export function filledIn(name: FixtureName, values: Json): Json {
  const filled = merge(fixture(name), values);
  // A recorded id left in would point discord.js at a guild, channel or person the test never made.
  const left = placeholders(filled);
  if (left.length > 0) throw new Error(`${name}: recorded ids not filled in: ${left.join(', ')}`);
  return filled;
}

/** The fixtures' placeholder snowflakes still in a payload. */
export function placeholders(value: unknown): string[] {
  if (typeof value === 'string') return PLACEHOLDER.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(placeholders);
  if (isObject(value)) return Object.values(value).flatMap(placeholders);
  return [];
}

/** The anonymised snowflakes of the fixtures: 1000000000000000xx. */
export const PLACEHOLDER = /^1000000000000000\d\d$/;

function merge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = merge(out[key] as Json, value);
    else out[key] = value;
  }
  return out;
}

/** The parts of a gateway payload Discord's OpenAPI description has schemas for. */
function parts(event: string, d: Json): [string, unknown][] {
  const found: [string, unknown][] = [];
  if (event === 'READY') found.push(['UserPIIResponseSchema', d.user]);
  if (event === 'GUILD_CREATE') {
    found.push(['GuildResponseSchema', d]);
    for (const role of (d.roles as unknown[]) ?? []) found.push(['GuildRoleResponseSchema', role]);
    for (const channel of (d.channels as Json[]) ?? [])
      found.push(['GuildChannelResponseSchema', { ...channel, guild_id: d.id }]);
    for (const thread of (d.threads as unknown[]) ?? []) found.push(['ThreadResponseSchema', thread]);
  }
  if (event === 'GUILD_CREATE')
    for (const member of (d.members as unknown[]) ?? []) found.push(['GuildMemberResponseSchema', member]);
  if (event === 'GUILD_MEMBER_UPDATE') {
    const { guild_id: _guild, ...member } = d;
    found.push(['GuildMemberResponseSchema', member]);
  }
  if (event === 'GUILD_MEMBER_REMOVE') found.push(['UserResponseSchema', d.user]);
  if (event === 'MESSAGE_CREATE') {
    found.push(['MessageResponseSchema', d]);
    if (isObject(d.member)) found.push(['GuildMemberResponseSchema', { ...d.member, user: d.author }]);
  }
  if (event === 'INTERACTION_CREATE') {
    found.push(['InteractionTypesSchema', d.type], ['InteractionContextTypeSchema', d.context]);
    if (isObject(d.member)) found.push(['GuildMemberResponseSchema', d.member]);
    if (isObject(d.user)) found.push(['UserResponseSchema', d.user]);
    if (isObject(d.message)) found.push(['MessageResponseSchema', d.message]);
    const channel = d.channel as Json | undefined;
    if (isObject(channel))
      found.push([
        channel.type === 11
          ? 'ThreadResponseSchema'
          : channel.type === 1
            ? 'PrivateChannelResponseSchema'
            : 'GuildChannelResponseSchema',
        channel,
      ]);
    const data = d.data as Json | undefined;
    if (isObject(data) && data.type !== undefined) found.push(['ApplicationCommandTypeSchema', data.type]);
    for (const option of (isObject(data) ? (data.options as Json[] | undefined) : undefined) ?? [])
      found.push(['ApplicationCommandOptionTypeSchema', option.type]);
  }
  return found;
}

/**
 * Checks a gateway payload against Discord's OpenAPI description (npm `discord-api-spec`, the
 * same zod schemas the REST side uses), part by part; returns the problems found.
 */
export function dispatchProblems(event: string, d: unknown): string[] {
  if (!isObject(d)) return [`${event}: not an object`];
  return parts(event, d).flatMap(([name, value]) => {
    const result = schema(name).safeParse(value);
    return result.success
      ? []
      : (result.error?.issues ?? []).map(
          (i) => `${event} ${name} ${i.path.map(String).join('.')}: ${i.message}`,
        );
  });
}

/** A dispatch the stand-in makes must pass the same checks: a wrong fake passes tests wrongly. */
export function checkedDispatch(event: string, d: unknown): unknown {
  const problems = dispatchProblems(event, d);
  if (problems.length > 0)
    throw new Error(`the stand-in's ${event} is not what Discord sends: ${problems.slice(0, 5).join('; ')}`);
  return d;
}
