import { z } from 'zod';
import { MCP_SERVER_NAME_MAX, MCP_SERVER_NAME_PATTERN, type McpServerSpec } from '../model/mcp/mcp-server';
import { DOMAIN_PATTERN, DOMAIN_RULE } from '../network/allowed-domains';
import { envReference, referenceProblemIn, variablesIn } from './env-references';

/**
 * E1: one `mcpServers` entry of the workspace file, as written: a local program (`command`,
 * stdio) or a remote server (`url`, streamable HTTP). Every string but the name and the
 * domains may hold `${env:NAME}` references (E2), checked here and kept unexpanded.
 */
const NAME_RULE = `must be a lowercase slug (a-z, 0-9, - and _, not starting with - or _) of at most ${MCP_SERVER_NAME_MAX} characters`;

export const mcpServerNameSchema = z
  .string()
  .max(MCP_SERVER_NAME_MAX, NAME_RULE)
  .regex(MCP_SERVER_NAME_PATTERN, NAME_RULE);

/** E2: a string whose `${…}` are all well-formed `${env:NAME}` references. */
const referable = (base: z.ZodString = z.string()) =>
  base.superRefine((text, context) => {
    const problem = referenceProblemIn(text);
    // The reference's own sentence is enough: no further rule of this string is checked.
    if (problem !== null) context.addIssue({ code: 'custom', message: problem, continue: false });
  });

const REFERENCE = envReference('NAME');
const PATH_RULE = `must be an absolute path (or start with a ${REFERENCE} reference)`;
const absolutePath = referable().refine((p) => p.startsWith('/') || /^\$\{env:/.test(p), PATH_RULE);

const URL_RULE = 'must be an http(s) URL such as "https://mcp.example.com/mcp"';
const url = referable().refine(
  (text) => /^https?:\/\//.test(text) && (variablesIn(text).length > 0 || URL.canParse(text)),
  URL_RULE,
);

const ENV_KEY_RULE = 'must be a variable name (letters, digits and _, not starting with a digit)';
const HEADER_RULE = 'must be an HTTP header name such as "Authorization"';

export const MCP_TOKEN_OWNERS = ['member', 'workspace'] as const;

const STDIO_KEYS = ['command', 'args', 'env', 'allowedDomains', 'readOnlyPaths', 'cwd'] as const;
const HTTP_KEYS = ['url', 'headers', 'auth'] as const;

export const mcpServerEntrySchema = z
  .strictObject({
    name: mcpServerNameSchema.meta({ description: 'E1: tools reach the model as `<name>__<tool>`.' }),
    command: referable(z.string().min(1, 'must not be empty'))
      .meta({ description: 'E3: the program of a local (stdio) server; it runs sandboxed.' })
      .optional(),
    args: z.array(referable()).optional(),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, ENV_KEY_RULE), referable())
      .meta({
        description: `The only variables the program gets. Give credentials as ${REFERENCE} references to Summon’s environment.`,
      })
      .optional(),
    allowedDomains: z
      .array(z.string().max(253, DOMAIN_RULE).regex(DOMAIN_PATTERN, DOMAIN_RULE))
      .meta({ description: 'X2, E3: the hosts the program may reach (none by default).' })
      .optional(),
    readOnlyPaths: z
      .array(absolutePath)
      .meta({ description: 'E3: more paths it may read inside its sandbox.' })
      .optional(),
    cwd: absolutePath.optional(),
    url: url.meta({ description: 'E1: the address of a remote server (streamable HTTP).' }).optional(),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, HEADER_RULE), referable())
      .meta({ description: `Sent with every request. Give credentials as ${REFERENCE} references.` })
      .optional(),
    auth: z
      .strictObject({ kind: z.literal('oauth'), tokens: z.enum(MCP_TOKEN_OWNERS) })
      .meta({
        description:
          "E5: OAuth 2.1, authorized by a person; `tokens: member` uses the asking member's authorization, `workspace` one for everyone.",
      })
      .optional(),
  })
  .superRefine((entry, context) => {
    const stdio = entry.command !== undefined;
    if (stdio === (entry.url !== undefined)) {
      const message = stdio
        ? `"${entry.name}" has both command and url: a server is either a local program (command) or a remote one (url)`
        : `"${entry.name}" has neither command nor url: give command for a local program or url for a remote server`;
      context.addIssue({ code: 'custom', path: [], message });
      return;
    }
    for (const key of stdio ? HTTP_KEYS : STDIO_KEYS)
      if (entry[key] !== undefined)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: stdio ? 'only for a remote server (url)' : 'only for a local program (command)',
        });
    // HTTP header names are case-insensitive: two spellings of one would be sent as one.
    const seen = new Map<string, string>();
    for (const header of Object.keys(entry.headers ?? {})) {
      const first = seen.get(header.toLowerCase());
      if (first !== undefined)
        context.addIssue({
          code: 'custom',
          path: ['headers', header],
          message: `duplicates headers.${first}`,
        });
      else seen.set(header.toLowerCase(), header);
    }
    const authorization = seen.get('authorization');
    if (entry.auth !== undefined && authorization !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['headers', authorization],
        message: 'not with auth: the OAuth token is sent as Authorization',
      });
  })
  .meta({
    description: 'E1: an MCP server: `command` (a local program, stdio) or `url` (remote, HTTP).',
    // For editors: exactly one of the two (the sentences come from the check above).
    oneOf: [{ required: ['command'] }, { required: ['url'] }],
  });

export type McpServerEntry = z.infer<typeof mcpServerEntrySchema>;

/** E1: the spec a checked entry declares (a list or map left out is empty). */
export function specOfEntry(entry: McpServerEntry): McpServerSpec {
  if (entry.url !== undefined)
    return {
      name: entry.name,
      transport: 'http',
      url: entry.url,
      headers: entry.headers ?? {},
      ...(entry.auth === undefined ? {} : { auth: { kind: 'oauth', tokens: entry.auth.tokens } }),
    };
  return {
    name: entry.name,
    transport: 'stdio',
    command: entry.command ?? '',
    args: entry.args ?? [],
    env: entry.env ?? {},
    allowedDomains: entry.allowedDomains ?? [],
    readOnlyPaths: entry.readOnlyPaths ?? [],
    ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
  };
}

/** E1, E2: the entry `summon export` writes: references as stored, empty lists and maps left out. */
export function entryOfSpec(spec: McpServerSpec): McpServerEntry {
  const filled = (record: Readonly<Record<string, string>>) => Object.keys(record).length > 0;
  if (spec.transport === 'http') {
    const entry: McpServerEntry = { name: spec.name, url: spec.url };
    if (filled(spec.headers)) entry.headers = { ...spec.headers };
    if (spec.auth !== undefined) entry.auth = { kind: 'oauth', tokens: spec.auth.tokens };
    return entry;
  }
  const entry: McpServerEntry = { name: spec.name, command: spec.command };
  if (spec.args.length > 0) entry.args = [...spec.args];
  if (filled(spec.env)) entry.env = { ...spec.env };
  if (spec.allowedDomains.length > 0) entry.allowedDomains = [...spec.allowedDomains];
  if (spec.readOnlyPaths.length > 0) entry.readOnlyPaths = [...spec.readOnlyPaths];
  if (spec.cwd !== undefined) entry.cwd = spec.cwd;
  return entry;
}
