import { ValidationError } from '../../../src/core/errors';
import { routineEntryOf, routineSpecOf } from '../../../src/core/routines/routine-entry';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';

function refusal(text: string): string[] {
  try {
    parseWorkspaceFile(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const routines = (...entries: string[]) =>
  `workspace: acme\nspaces:\n  - name: ops\n    participants: [qa]\n    routines:\n${entries.map((e) => `      - ${e}\n`).join('')}`;

const base = 'name: nightly, agent: qa, prompt: "Summarize the night"';

describe('W1 routines in the workspace file', () => {
  it('W1 accepts each trigger and fills the defaults (UTC, runOnce, not paused)', () => {
    const file = parseWorkspaceFile(
      routines(
        `{ ${base}, schedule: "0 9 * * 1-5", timezone: Europe/Prague }`,
        '{ name: once, agent: qa, prompt: go, at: "2030-01-02T09:00:00+01:00", onMissed: skip }',
        '{ name: hook, agent: qa, prompt: look, webhook: true, paused: true, budget: { per: day, tokens: 5000 } }',
      ),
    );
    const specs = (file.spaces?.[0]?.routines ?? []).map(routineSpecOf);
    expect(specs).toEqual([
      {
        name: 'nightly',
        agent: 'qa',
        prompt: 'Summarize the night',
        trigger: { kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Prague' },
        onMissed: 'runOnce',
        budget: null,
        paused: false,
      },
      {
        name: 'once',
        agent: 'qa',
        prompt: 'go',
        trigger: { kind: 'at', at: '2030-01-02T09:00:00+01:00' },
        onMissed: 'skip',
        budget: null,
        paused: false,
      },
      {
        name: 'hook',
        agent: 'qa',
        prompt: 'look',
        trigger: { kind: 'webhook' },
        onMissed: 'runOnce',
        budget: { per: 'day', unit: 'tokens', limit: 5000 },
        paused: true,
      },
    ]);
    // W1: export writes back what was given, defaults left out.
    expect(specs.map(routineEntryOf)).toEqual(file.spaces?.[0]?.routines);
  });

  it('W1 refuses an invalid cron, naming the field', () => {
    expect(refusal(routines(`{ ${base}, schedule: "61 9 * * *" }`))).toEqual([
      'spaces[0].routines[0].schedule: is not a valid cron expression (Invalid value for minute: 61)',
    ]);
    expect(refusal(routines(`{ ${base}, schedule: "0 0 9 * * *" }`))).toEqual([
      'spaces[0].routines[0].schedule: must be a 5-field cron "minute hour day-of-month month day-of-week" such as "0 9 * * 1-5" (this has 6 fields)',
    ]);
  });

  it('W1 refuses an unknown time zone, and a time zone without a schedule', () => {
    expect(refusal(routines(`{ ${base}, schedule: "0 9 * * *", timezone: Mars/Olympus }`))).toEqual([
      'spaces[0].routines[0].timezone: "Mars/Olympus" is not a known IANA time zone (such as "Europe/Prague" or "UTC")',
    ]);
    expect(refusal(routines(`{ ${base}, webhook: true, timezone: UTC }`))).toEqual([
      'spaces[0].routines[0].timezone: only with schedule',
    ]);
  });

  it('W1 refuses an `at` without its offset', () => {
    expect(refusal(routines(`{ ${base}, at: "2030-01-02T09:00:00" }`))).toEqual([
      'spaces[0].routines[0].at: must be one time in ISO 8601 with its offset, such as "2026-12-24T09:00:00+01:00"',
    ]);
  });

  it('W1 refuses two triggers, and none', () => {
    expect(refusal(routines(`{ ${base}, schedule: "0 9 * * *", at: "2030-01-02T09:00:00Z" }`))).toEqual([
      'spaces[0].routines[0].at: a routine has exactly one trigger; this one also has schedule',
    ]);
    expect(refusal(routines(`{ ${base} }`))).toEqual([
      'spaces[0].routines[0].schedule: a routine needs one trigger: schedule, at, webhook or github',
    ]);
  });

  it('W1 accepts a github trigger (repository lower-cased) and exports it as written', () => {
    const file = parseWorkspaceFile(
      routines(
        `{ ${base}, github: { event: release.published, repo: Acme/API } }`,
        '{ name: red, agent: qa, prompt: look, github: { event: check_suite.completed, filters: { conclusion: failure, branch: main } } }',
        '{ name: pushed, agent: qa, prompt: look, github: { event: push } }',
      ),
    );
    const specs = (file.spaces?.[0]?.routines ?? []).map(routineSpecOf);
    expect(specs.map((s) => s.trigger)).toEqual([
      { kind: 'github', event: 'release.published', repo: 'acme/api', filters: {} },
      {
        kind: 'github',
        event: 'check_suite.completed',
        repo: null,
        filters: { conclusion: 'failure', branch: 'main' },
      },
      { kind: 'github', event: 'push', repo: null, filters: {} },
    ]);
    expect(specs.map(routineEntryOf).map((e) => e.github)).toEqual([
      { event: 'release.published', repo: 'acme/api' },
      { event: 'check_suite.completed', filters: { conclusion: 'failure', branch: 'main' } },
      { event: 'push' },
    ]);
  });

  it('W1 refuses a github trigger with an unknown event format, an unknown or misplaced filter, a bad repo', () => {
    expect(refusal(routines(`{ ${base}, github: { event: "Release Published" } }`))).toEqual([
      'spaces[0].routines[0].github.event: "Release Published" is not a GitHub event: write "<event>.<action>" such as "release.published" or "check_suite.completed", or an event without actions such as "push"',
    ]);
    expect(
      refusal(routines(`{ ${base}, github: { event: check_suite.completed, filters: { color: red } } }`)),
    ).toEqual([
      'spaces[0].routines[0].github.filters.color: unknown filter "color"; filters are conclusion, branch, app, check, workflow, tag, ref',
    ]);
    expect(
      refusal(
        routines(`{ ${base}, github: { event: release.published, filters: { conclusion: failure } } }`),
      ),
    ).toEqual([
      'spaces[0].routines[0].github.filters.conclusion: "release" deliveries have no "conclusion"; its filters are tag',
    ]);
    expect(
      refusal(routines(`{ ${base}, github: { event: issues.opened, filters: { branch: main } } }`)),
    ).toEqual([
      'spaces[0].routines[0].github.filters.branch: "issues" deliveries have no "branch"; "issues" takes no filters',
    ]);
    expect(refusal(routines(`{ ${base}, github: { event: push, repo: "not a repo" } }`))).toEqual([
      'spaces[0].routines[0].github.repo: must be a GitHub repository "owner/name"',
    ]);
    expect(refusal(routines(`{ ${base}, github: { event: push, branch: main } }`))).toEqual([
      'spaces[0].routines[0].github.branch: unknown key',
    ]);
  });

  it('W1 refuses a name twice in a space, a bad slug, an empty prompt and a budget in two units', () => {
    expect(
      refusal(
        routines(
          `{ ${base}, webhook: true }`,
          `{ ${base}, webhook: true }`,
          '{ name: Bad Name, agent: qa, prompt: "", webhook: true, budget: { per: day, tokens: 1, usd: 1 } }',
        ),
      ),
    ).toEqual([
      'spaces[0].routines[2].name: must be a slug: 1-63 lower-case letters, digits, "_" or "-", starting with a letter or digit',
      'spaces[0].routines[2].prompt: must not be empty',
      'spaces[0].routines[2].budget.tokens: a budget sets exactly one of `tokens` or `usd`',
    ]);
    expect(refusal(routines(`{ ${base}, webhook: true }`, `{ ${base}, webhook: true }`))).toEqual([
      'spaces[0].routines[1].name: duplicates spaces[0].routines[0]',
    ]);
  });
});
