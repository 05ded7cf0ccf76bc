/**
 * What Discord refuses, checked by the stand-in on every request: the body against Discord's
 * own OpenAPI description (npm `discord-api-spec`, zod schemas), plus the limits the
 * description does not carry. A refusal has Discord's error shape.
 */

interface SafeParser {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}

// ES module only: jest maps and transforms it (jest.config.js). Loaded once per test file.
const spec = require('discord-api-spec/zod') as Record<string, SafeParser | undefined>;

export const schema = (name: string): SafeParser => {
  const found = spec[name];
  if (found === undefined) throw new Error(`discord-api-spec has no ${name}`);
  return found;
};

/** Discord's JSON error body. */
export interface DiscordError {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

export class DiscordRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: DiscordError,
  ) {
    super(`${status} ${body.code} ${body.message}`);
  }
}

export const invalidForm = (problems: Record<string, string>): DiscordRefusal =>
  new DiscordRefusal(400, {
    code: 50035,
    message: 'Invalid Form Body',
    errors: Object.fromEntries(
      Object.entries(problems).map(([path, message]) => [
        path,
        { _errors: [{ code: 'BASE_TYPE_INVALID', message }] },
      ]),
    ),
  });

/** Validates `body` against the named schema of Discord's OpenAPI description. */
export function checkSchema(name: string, body: unknown): void {
  const result = schema(name).safeParse(body);
  if (result.success) return;
  const problems: Record<string, string> = {};
  for (const issue of result.error?.issues ?? [])
    problems[issue.path.map(String).join('.') || '(body)'] = issue.message;
  throw invalidForm(problems);
}

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
}
interface Component {
  type: number;
  custom_id?: string;
  label?: string;
  components?: Component[];
}
export interface MessageBody {
  content?: string;
  flags?: number;
  embeds?: Embed[];
  components?: Component[];
  username?: string;
  allowed_mentions?: { parse?: string[]; users?: string[]; roles?: string[] };
}

/** Discord's limits on a message: content, embeds, components. */
export function checkMessageLimits(body: MessageBody, options: { create: boolean }): void {
  const problems: Record<string, string> = {};
  if ((body.content?.length ?? 0) > 2000) problems.content = 'Must be 2000 or fewer in length.';
  const embeds = body.embeds ?? [];
  if (embeds.length > 10) problems.embeds = 'Must be 10 or fewer in length.';
  let total = 0;
  embeds.forEach((embed, i) => {
    if ((embed.title?.length ?? 0) > 256) problems[`embeds.${i}.title`] = 'Must be 256 or fewer in length.';
    if ((embed.description?.length ?? 0) > 4096)
      problems[`embeds.${i}.description`] = 'Must be 4096 or fewer in length.';
    total +=
      (embed.title?.length ?? 0) +
      (embed.description?.length ?? 0) +
      (embed.footer?.text.length ?? 0) +
      (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
  });
  if (total > 6000) problems.embeds = 'Embed size exceeds maximum size of 6000';
  const rows = body.components ?? [];
  if (rows.length > 5) problems.components = 'Must be 5 or fewer in length.';
  rows.forEach((row, i) => {
    (row.components ?? []).forEach((component, j) => {
      const at = `components.${i}.components.${j}`;
      const id = component.custom_id;
      if (id !== undefined && (id.length < 1 || id.length > 100))
        problems[`${at}.custom_id`] = 'Must be between 1 and 100 in length.';
      if ((component.label?.length ?? 0) > 80) problems[`${at}.label`] = 'Must be 80 or fewer in length.';
    });
  });
  if (options.create && (body.content ?? '') === '' && embeds.length === 0 && rows.length === 0)
    throw new DiscordRefusal(400, { code: 50006, message: 'Cannot send an empty message' });
  if (Object.keys(problems).length > 0) throw invalidForm(problems);
}

/** Webhook names and usernames: 1–80 characters, no "clyde" or "discord", not "everyone"/"here". */
export function checkWebhookName(name: string | undefined, field: 'name' | 'username'): void {
  if (name === undefined) return;
  const problems: Record<string, string> = {};
  if (name.length < 1 || name.length > 80) problems[field] = 'Must be between 1 and 80 in length.';
  if (/clyde|discord/i.test(name)) problems[field] = `${field} cannot contain "clyde" or "discord"`;
  if (/^(everyone|here)$/i.test(name.trim())) problems[field] = `${field} cannot be "everyone" or "here"`;
  if (Object.keys(problems).length > 0) throw invalidForm(problems);
}

/**
 * Who a message pings, as Discord decides it from its content and `allowed_mentions` (when
 * absent, everything written pings).
 */
export function pingsOf(
  body: MessageBody,
  roles: readonly string[],
): { everyone: boolean; users: string[]; roles: string[] } {
  const content = body.content ?? '';
  const allowed = body.allowed_mentions;
  const parse = allowed === undefined ? ['everyone', 'users', 'roles'] : (allowed.parse ?? []);
  const written = [...content.matchAll(/<@!?([0-9]+)>/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
  const users = written.filter((id) => parse.includes('users') || (allowed?.users ?? []).includes(id));
  const writtenRoles = [...content.matchAll(/<@&([0-9]+)>/g)].flatMap((m) =>
    m[1] === undefined ? [] : [m[1]],
  );
  return {
    everyone: parse.includes('everyone') && /@(everyone|here)/.test(content),
    users: [...new Set(users)],
    roles: writtenRoles.filter(
      (id) => roles.includes(id) && (parse.includes('roles') || (allowed?.roles ?? []).includes(id)),
    ),
  };
}

/**
 * The stand-in's own answers are checked too, against the same description: a fake that
 * answers what Discord never would makes tests pass for the wrong reason.
 */
export function checkResponse<T>(name: string, value: T): T {
  const result = schema(name).safeParse(value);
  if (!result.success) {
    const issues = (result.error?.issues ?? []).map((i) => `${i.path.map(String).join('.')}: ${i.message}`);
    throw new Error(`the stand-in's answer is not a ${name}: ${issues.slice(0, 5).join('; ')}`);
  }
  return value;
}

/** Discord stores an embed sent without a type as a `rich` one. */
export const asStored = (embed: NonNullable<MessageBody['embeds']>[number]) => ({ type: 'rich', ...embed });

type Components = NonNullable<MessageBody['components']>;

/** Discord numbers a message's components 1, 2, 3… (depth first) when the request gave no ids. */
export function numbered(rows: Components): Components {
  let next = 0;
  const number = (components: Components): Components =>
    components.map((component) => ({
      id: ++next,
      ...component,
      ...(component.components === undefined ? {} : { components: number(component.components) }),
    }));
  return number(rows);
}
