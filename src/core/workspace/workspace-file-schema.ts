import { z } from 'zod';
import { MCP_TOOL_RULE_PATTERN, MCP_TOOL_RULE_USAGE } from '../guardrails/mcp-tool-rule';
import { mcpServerEntrySchema, mcpServerNameSchema } from '../mcp/mcp-server-entry';
import { ADAPTER_IDS, SILENCE_TIMEOUT_RANGE } from '../model/agent';
import { GUARDRAIL_ACTIONS, GUARDRAIL_DECISIONS } from '../model/guardrail';
import { MEMBER_ROLES } from '../model/member';
import { RELAY_LEVELS } from '../model/relays/relay-level';
import { SLUG_PATTERN, SLUG_RULE } from '../model/slug';
import { AUTONOMY_LEVELS, SPACE_MODES, WHILE_RUNNING } from '../model/space';
import { BUDGET_PERIODS } from '../model/usage/budget';
import { DOMAIN_PATTERN, DOMAIN_RULE } from '../network/allowed-domains';
import { routineEntrySchema } from '../routines/routine-entry';
import { skillReviewSchema, skillSourceSchema } from '../skills/skill-lock';
import { accessEntrySchema } from './access-entries';

/**
 * The workspace file (`summon apply`, `summon export`): the whole workspace as code. Keys
 * are fixed and unknown keys are errors, so a typo is refused instead of silently ignored.
 * The same schema is published as JSON Schema in `schema/workspace.schema.json`.
 */
const slug = z.string().regex(SLUG_PATTERN, SLUG_RULE);

/** Discord snowflakes exceed 2^53: as YAML numbers they would silently lose digits. */
const snowflake = z
  .string({ error: 'must be a quoted string of digits (a Discord id loses digits as a YAML number)' })
  .regex(/^\d{1,20}$/, 'must be a Discord id (digits only)');
const slackId = (prefix: string, what: string, example: string) =>
  z.string().regex(new RegExp(`^[${prefix}][A-Z0-9]{2,}$`), `must be a Slack ${what} id such as ${example}`);

/** E1: servers given to an agent or a space, by the names `mcpServers` declares. */
const mcpServerNames = z.array(mcpServerNameSchema).meta({
  description:
    'E1: MCP servers (names declared under mcpServers) whose tools this gets; a turn gets its agent’s and its space’s.',
});

const silenceRule = `must be ${SILENCE_TIMEOUT_RANGE.min}..${SILENCE_TIMEOUT_RANGE.max}`;

export const agentEntrySchema = z
  .strictObject({
    name: slug,
    title: z.string().max(200).optional(),
    persona: z.string().optional(),
    systemPrompt: z.string().optional(),
    skills: z.array(slug).optional(),
    adapter: z.enum(ADAPTER_IDS).optional(),
    model: z.string().min(1).optional(),
    effort: z.string().min(1).optional(),
    contextSize: z.int('must be a whole number of tokens').positive('must be positive').optional(),
    silenceTimeoutMinutes: z
      .int(silenceRule)
      .min(SILENCE_TIMEOUT_RANGE.min, silenceRule)
      .max(SILENCE_TIMEOUT_RANGE.max, silenceRule)
      .optional(),
    reportsTo: slug.optional(),
    avatarUrl: z.url('must be an http(s) URL').optional(),
    command: z.string().min(1).optional(),
    mcpServers: mcpServerNames.optional(),
  })
  .superRefine((agent, ctx) => {
    if (agent.command !== undefined && agent.adapter !== 'command') {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'only for adapter: command' });
    }
    if (agent.adapter === 'command' && agent.command === undefined) {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'required when adapter is command' });
    }
    if (agent.reportsTo === agent.name) {
      ctx.addIssue({ code: 'custom', path: ['reportsTo'], message: 'an agent cannot report to itself' });
    }
  });

export const memberEntrySchema = z.strictObject({
  nickname: slug,
  role: z.enum(MEMBER_ROLES).optional(),
  slack: slackId('UW', 'user', 'U0123ABCD').optional(),
  discord: snowflake.optional(),
  /** P20: the member's GitHub login: their comments on a space's repositories reach its agents. */
  github: z
    .string()
    .regex(
      /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/,
      'must be a GitHub login (letters, digits, single hyphens)',
    )
    .optional(),
});

/** A6: an installed skill as `summon export` writes it: `<owner>/<repo>/<skill>@<commit>`. */
export const INSTALLED_SOURCE_PATTERN =
  /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/[a-z0-9][a-z0-9_-]{0,62}@[0-9a-f]{40,64}$/;

export const skillEntrySchema = z
  .strictObject({
    name: slug,
    description: z.string().max(1024).optional(),
    body: z.string().optional(),
    source: z
      .string()
      .regex(INSTALLED_SOURCE_PATTERN, 'must be "<owner>/<repo>/<skill>@<commit>"')
      .meta({
        description:
          'A6: an installed skill (`summon skills install`), pinned in skills-lock.json; apply checks the pin and never writes its files.',
      })
      .optional(),
  })
  .superRefine((skill, ctx) => {
    if (skill.source === undefined) return;
    for (const key of ['description', 'body'] as const)
      if (skill[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'an installed skill takes its text from its source',
        });
  });

/** A6: a GitHub repository registered as a skill source (`summon skills source add`). */
export const skillSourceEntrySchema = skillSourceSchema;

export const channelEntrySchema = z.union(
  [z.strictObject({ slack: slackId('CGD', 'channel', 'C0123ABCD') }), z.strictObject({ discord: snowflake })],
  { error: 'must be { slack: <channel id> } or { discord: "<channel id>" }' },
);

export const spaceEntrySchema = z.strictObject({
  name: slug,
  context: z.string().optional(),
  mode: z.enum(SPACE_MODES).optional(),
  autonomy: z.enum(AUTONOMY_LEVELS).optional(),
  dedicated: z.boolean().optional(),
  /** P16: `steer` (the default): a message while a built-in turn runs joins it; `queue`: it waits. */
  whileRunning: z.enum(WHILE_RUNNING).optional(),
  participants: z.array(slug).optional(),
  repos: z
    .array(z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be a GitHub repository "owner/name"'))
    .optional(),
  channels: z.array(channelEntrySchema).optional(),
  mcpServers: mcpServerNames.optional(),
  routines: z
    .array(routineEntrySchema)
    .meta({
      description:
        "W1: the space's routines (the whole list: a routine left out is deleted); left out, they are kept.",
    })
    .optional(),
});

export const GUARDRAIL_SCOPE_PATTERN = /^(workspace|agent:[a-z0-9][a-z0-9_-]*|space:[a-z0-9][a-z0-9_-]*)$/;

export const guardrailEntrySchema = z
  .strictObject({
    scope: z.string().regex(GUARDRAIL_SCOPE_PATTERN, 'must be "workspace", "agent:<name>" or "space:<name>"'),
    action: z.enum(GUARDRAIL_ACTIONS),
    decision: z.enum(GUARDRAIL_DECISIONS),
    tool: z
      .string()
      .regex(MCP_TOOL_RULE_PATTERN, `must be one MCP tool or a server's tools: ${MCP_TOOL_RULE_USAGE}`)
      .meta({
        description:
          'E4: only with action mcp: the rule is about one tool ("linear__create_issue") or every tool of a server ("linear__*"); without it, about every MCP tool.',
      })
      .optional(),
  })
  .superRefine((entry, context) => {
    // E4: only an `mcp` rule names a tool.
    if (entry.tool !== undefined && entry.action !== 'mcp') {
      context.addIssue({
        code: 'custom',
        path: ['tool'],
        message: `only an mcp rule can name a tool; remove it or use action mcp (this rule is about ${entry.action})`,
      });
    }
  });

/** X2: an exact host or a `*.` wildcard over subdomains (never a single-label wildcard). */
const allowedDomain = z.string().max(253, DOMAIN_RULE).regex(DOMAIN_PATTERN, DOMAIN_RULE);

export const sandboxEntrySchema = z.strictObject({
  allowedDomains: z
    .array(allowedDomain)
    .meta({
      description:
        'X2: hosts agents may reach through the egress proxy, as the `network` guardrail decides (exact "api.example.com" or "*.example.com" for subdomains).',
    })
    .optional(),
});

/** N15, R1: which paired relays the workspace accepts, at which level; never their keys. */
export const relaysEntrySchema = z.strictObject({
  acceptRemoteAgentPrompts: z
    .boolean()
    .meta({
      description:
        "N15: false refuses every prompt from paired relays' agents (with a sentence to the sender); this relay's own agents are not affected.",
    })
    .optional(),
  accept: z
    .array(
      z.strictObject({
        relay: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'must be a relay name (SUMMON_RELAY_NAME)'),
        level: z.enum(RELAY_LEVELS).meta({
          description:
            'R1: read (list agents and sessions), prompt (also send notes), full (also answer questions).',
        }),
      }),
    )
    .meta({
      description:
        'R1: the paired relays this workspace accepts and what their agents may do here. Pairing (`summon relays pair`) adds an entry; the keys stay in the database.',
    })
    .optional(),
});

/** O3: a spending limit: exactly one of `tokens` or `usd`, per UTC day or month. */
export const budgetEntrySchema = z
  .strictObject({
    scope: z
      .string()
      .regex(GUARDRAIL_SCOPE_PATTERN, 'must be "workspace", "agent:<name>" or "space:<name>"')
      .meta({ description: 'What the budget bounds: "workspace", "agent:<name>" or "space:<name>".' }),
    per: z
      .enum(BUDGET_PERIODS)
      .meta({ description: 'The period it counts over: a UTC calendar day or month.' }),
    tokens: z
      .number()
      .int('must be a whole number of tokens')
      .positive('must be more than 0')
      .meta({ description: 'Tokens (input, output and cached) the scope may use per period.' })
      .optional(),
    usd: z
      .number()
      .positive('must be more than 0')
      .meta({ description: 'US dollars the scope may spend per period (priced models only).' })
      .optional(),
  })
  .superRefine((entry, context) => {
    if ((entry.tokens === undefined) === (entry.usd === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['tokens'],
        message: 'a budget sets exactly one of `tokens` or `usd`',
      });
    }
  })
  .meta({
    description:
      'O3: a budget. A turn stops before its next model call once the budget is used up, and no turn starts until the period ends or the budget is raised.',
  });

export const workspaceFileSchema = z
  .strictObject({
    workspace: slug,
    name: z.string().min(1).max(200).optional(),
    slack: z.strictObject({ teamId: slackId('TE', 'team', 'T0123ABCD') }).optional(),
    discord: z.strictObject({ guildId: snowflake }).optional(),
    members: z.array(memberEntrySchema).optional(),
    access: z
      .array(accessEntrySchema)
      .meta({
        description:
          'P24: platform groups that admit people (the whole list: a group left out no longer admits); left out, the list is kept.',
      })
      .optional(),
    agents: z.array(agentEntrySchema).optional(),
    skills: z.array(skillEntrySchema).optional(),
    spaces: z.array(spaceEntrySchema).optional(),
    guardrails: z.array(guardrailEntrySchema).optional(),
    sandbox: sandboxEntrySchema.optional(),
    skillSources: z
      .array(skillSourceEntrySchema)
      .meta({ description: 'A6: GitHub repositories skills are installed from (`summon skills install`).' })
      .optional(),
    skillReview: skillReviewSchema
      .meta({ description: 'A6: the agent whose model reviews each skill after the deterministic check.' })
      .optional(),
    budgets: z.array(budgetEntrySchema).optional(),
    relays: relaysEntrySchema.optional(),
    mcpServers: z
      .array(mcpServerEntrySchema)
      .meta({
        description:
          'E1: the MCP servers the workspace declares (the whole list: a server left out is removed); give them to spaces and agents by name.',
      })
      .optional(),
  })
  .meta({
    title: 'Summon workspace',
    description:
      'A Summon workspace as code: `summon apply <file>` creates or updates it, `summon export` writes it.',
  });

export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;
export type AgentEntry = z.infer<typeof agentEntrySchema>;
export type MemberEntry = z.infer<typeof memberEntrySchema>;
export type SkillEntry = z.infer<typeof skillEntrySchema>;
export type SpaceEntry = z.infer<typeof spaceEntrySchema>;
export type ChannelEntry = z.infer<typeof channelEntrySchema>;
export type GuardrailEntry = z.infer<typeof guardrailEntrySchema>;
export type SandboxEntry = z.infer<typeof sandboxEntrySchema>;
export type BudgetEntry = z.infer<typeof budgetEntrySchema>;
