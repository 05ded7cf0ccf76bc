import { z } from 'zod';
import {
  ROUTINE_ON_MISSED,
  type RoutineBudget,
  type RoutineSpec,
  type RoutineTrigger,
} from '../model/routines/routine';
import { SLUG_PATTERN, SLUG_RULE } from '../model/slug';
import { BUDGET_PERIODS } from '../model/usage/budget';
import { githubTriggerProblems } from './github-trigger';
import { atProblem, cronProblem, timeZoneProblem } from './routine-schedule';

/**
 * W1: a routine as `spaces[].routines` writes it. Exactly one trigger; every refusal names the
 * field, so `summon apply` can say which line to fix.
 */
const slug = z.string().regex(SLUG_PATTERN, SLUG_RULE);

const TRIGGERS = ['schedule', 'at', 'webhook', 'github'] as const;

/** O3: the budget syntax of the file's `budgets`, without a scope: the routine is the scope. */
export const routineBudgetSchema = z
  .strictObject({
    per: z
      .enum(BUDGET_PERIODS)
      .meta({ description: 'The period it counts over: a UTC calendar day or month.' }),
    tokens: z.number().int('must be a whole number of tokens').positive('must be more than 0').optional(),
    usd: z.number().positive('must be more than 0').optional(),
  })
  .superRefine((entry, context) => {
    if ((entry.tokens === undefined) === (entry.usd === undefined))
      context.addIssue({
        code: 'custom',
        path: ['tokens'],
        message: 'a budget sets exactly one of `tokens` or `usd`',
      });
  })
  .meta({ description: "O3: what this routine's turns may spend; used up, it does not fire (W4)." });

export const routineEntrySchema = z
  .strictObject({
    name: slug.meta({ description: 'W1: unique in its space.' }),
    agent: slug.meta({ description: 'W1: the agent that runs it; must take part in the space.' }),
    prompt: z.string().min(1, 'must not be empty').max(20_000, 'must be at most 20000 characters'),
    schedule: z
      .string()
      .meta({ description: 'A 5-field cron: minute hour day-of-month month day-of-week ("0 9 * * 1-5").' })
      .optional(),
    timezone: z
      .string()
      .meta({ description: 'The IANA time zone the schedule is read in (default UTC).' })
      .optional(),
    at: z.string().meta({ description: 'One time, ISO 8601 with its offset.' }).optional(),
    webhook: z
      .literal(true, { error: 'must be true (a signed POST to /hooks/<workspace>/<space>/<routine>)' })
      .optional(),
    github: z
      .strictObject({
        event: z.string().meta({
          description:
            'W1: `<event>.<action>` ("release.published", "check_suite.completed") or `<event>` ("push").',
        }),
        repo: z.string().meta({ description: "One of the space's repos (default: any of them)." }).optional(),
        filters: z
          .record(z.string(), z.string('must be text, such as "failure" or "main"'))
          .meta({
            description: 'Exact matches: conclusion, branch, ref, tag, workflow, app, check (by event).',
          })
          .optional(),
      })
      .meta({
        description: "W1: a GitHub delivery to one of the space's repos (needs GITHUB_WEBHOOK_SECRET).",
      })
      .optional(),
    onMissed: z
      .enum(ROUTINE_ON_MISSED)
      .meta({ description: 'W3: after downtime, fire once for every missed time (runOnce) or not (skip).' })
      .optional(),
    budget: routineBudgetSchema.optional(),
    paused: z.boolean().optional(),
  })
  .superRefine((entry, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    const given = TRIGGERS.filter((key) => entry[key] !== undefined);
    if (given.length === 0) issue('schedule', 'a routine needs one trigger: schedule, at, webhook or github');
    for (const extra of given.slice(1))
      issue(extra, `a routine has exactly one trigger; this one also has ${given[0]}`);
    if (entry.timezone !== undefined && entry.schedule === undefined) issue('timezone', 'only with schedule');
    const problems: [string, string | null][] = [
      ['schedule', entry.schedule === undefined ? null : cronProblem(entry.schedule)],
      ['timezone', entry.timezone === undefined ? null : timeZoneProblem(entry.timezone)],
      ['at', entry.at === undefined ? null : atProblem(entry.at)],
    ];
    for (const [path, problem] of problems) if (problem !== null) issue(path, problem);
    for (const problem of entry.github === undefined ? [] : githubTriggerProblems(entry.github))
      context.addIssue({ code: 'custom', path: ['github', ...problem.path], message: problem.message });
  })
  .meta({ description: 'W1: a routine of this space: an agent, a prompt and exactly one trigger.' });

export type RoutineEntry = z.infer<typeof routineEntrySchema>;

/** W1: the entry as stored (the schema has checked it: exactly one trigger). */
export function routineSpecOf(entry: RoutineEntry): RoutineSpec {
  const { github } = entry;
  const trigger: RoutineTrigger =
    entry.schedule !== undefined
      ? { kind: 'schedule', cron: entry.schedule.trim(), timezone: entry.timezone ?? 'UTC' }
      : entry.at !== undefined
        ? { kind: 'at', at: entry.at }
        : github !== undefined
          ? // P19: repositories are compared lower-cased, as GitHub's names ignore case.
            {
              kind: 'github',
              event: github.event,
              repo: github.repo?.toLowerCase() ?? null,
              filters: github.filters ?? {},
            }
          : { kind: 'webhook' };
  const budget: RoutineBudget | null =
    entry.budget === undefined
      ? null
      : entry.budget.usd !== undefined
        ? { per: entry.budget.per, unit: 'usd', limit: entry.budget.usd }
        : { per: entry.budget.per, unit: 'tokens', limit: entry.budget.tokens ?? 0 };
  return {
    name: entry.name,
    agent: entry.agent,
    prompt: entry.prompt,
    trigger,
    onMissed: entry.onMissed ?? 'runOnce',
    budget,
    paused: entry.paused ?? false,
  };
}

/** W1: a stored routine as `summon export` writes it; defaults left out. */
export function routineEntryOf(spec: RoutineSpec): RoutineEntry {
  const { trigger, budget } = spec;
  return {
    name: spec.name,
    agent: spec.agent,
    prompt: spec.prompt,
    ...triggerEntryOf(trigger),
    ...(spec.onMissed === 'runOnce' ? {} : { onMissed: spec.onMissed }),
    ...(budget === null
      ? {}
      : {
          budget: {
            per: budget.per,
            ...(budget.unit === 'usd' ? { usd: budget.limit } : { tokens: budget.limit }),
          },
        }),
    ...(spec.paused ? { paused: true } : {}),
  };
}

/** W1: the trigger's keys as the file writes them; a `github` trigger's defaults left out. */
function triggerEntryOf(trigger: RoutineTrigger): Partial<RoutineEntry> {
  if (trigger.kind === 'schedule')
    return { schedule: trigger.cron, ...(trigger.timezone === 'UTC' ? {} : { timezone: trigger.timezone }) };
  if (trigger.kind === 'at') return { at: trigger.at };
  if (trigger.kind === 'webhook') return { webhook: true };
  const filters = Object.keys(trigger.filters).length === 0 ? {} : { filters: trigger.filters };
  return {
    github: { event: trigger.event, ...(trigger.repo === null ? {} : { repo: trigger.repo }), ...filters },
  };
}
