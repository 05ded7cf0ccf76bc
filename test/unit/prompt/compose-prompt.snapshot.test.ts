import { type ComposedPrompt, composePrompt, type PromptInput } from '../../../src/core/prompt';
import {
  agentRecord,
  agentSays,
  baseInput,
  personSays,
  skillRecord,
  spaceRecord,
  systemSays,
} from './prompt-fixtures';

/** Both halves, marked, so a snapshot shows what goes to the system prompt and what is asked. */
const shown = (composed: ComposedPrompt): string =>
  `=== system ===\n${composed.system}\n=== prompt ===\n${composed.prompt}\n`;

const compose = (overrides: Partial<PromptInput> = {}): string => shown(composePrompt(baseInput(overrides)));

/** Twelve messages of about a hundred characters each, oldest first. */
const longHistory = () =>
  Array.from({ length: 12 }, (_, i) =>
    i % 2 === 0
      ? personSays(
          'dana',
          `Message ${i + 1}: the refund job timed out again on batch ${i + 1}; logs attached.`,
          i,
        )
      : agentSays(
          'engineer',
          `Message ${i + 1}: looked at batch ${i + 1}; the retry loop never backs off.`,
          i,
        ),
  );

describe('composePrompt: full prompts', () => {
  it('M13: a plain person summons in chat mode', () => {
    expect(compose()).toMatchSnapshot();
  });

  it('A4, A5: an agent with a systemPrompt and skills, one of them not installed', () => {
    const text = compose({
      agent: agentRecord({
        systemPrompt: 'Always run the test suite before you answer.\nNever push to main.',
        skills: ['code-review', 'Deploy', 'release-notes'],
      }),
      skills: [
        skillRecord('code-review', 'Reviews a diff for bugs,\n  style and missing tests.'),
        skillRecord('deploy', 'Deploys a service to staging.'),
      ],
      loadedSkills: [{ name: 'code-review', body: 'Read the whole diff first.\nList findings by severity.' }],
    });
    expect(text).toMatchSnapshot();
  });

  it('plan mode is read-only', () => {
    const text = compose({
      space: spaceRecord({ mode: 'plan', repos: [], context: '' }),
      prompt: 'how should we split the refunds module?',
    });
    expect(text).toMatchSnapshot();
  });

  it('N11, N12: a turn started by another agent’s note', () => {
    const text = compose({
      summoner: { kind: 'agent', name: 'architect' },
      note: {
        relayName: 'build-box',
        sessionTitle: 'nightly digest',
        model: 'claude-sonnet-5',
        fromAgent: 'architect',
      },
      history: [
        personSays('dana', 'Can we get the nightly numbers?', 0),
        agentSays('architect', 'List the failed refund jobs of last night with their error.', 1, true),
        systemSays('engineer was started by a note from architect.', 2),
      ],
      prompt: 'List the failed refund jobs of last night with their error.',
      tools: { agentHandoff: true },
    });
    expect(text).toMatchSnapshot();
  });

  it('context window: a long history is cut to its newest whole messages, with a count', () => {
    const composed = composePrompt(
      baseInput({ agent: agentRecord({ contextSize: 800 }), history: longHistory() }),
    );
    expect(composed.history).toEqual({ included: 6, omitted: 6, budgetTokens: expect.any(Number) });
    const conversation = composed.sections.find((s) => s.id === 'conversation')?.body ?? '';
    const lines = conversation.split('\n');
    // The count line comes first and is right; then messages 7..12, each whole.
    expect(lines[0]).toBe('[6 earlier messages were left out to fit the context window.]');
    expect(lines.slice(1).map((line) => /Message (\d+):/.exec(line)?.[1])).toEqual([
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
    expect(conversation).not.toMatch(/Message [1-6]:/);
    expect(shown(composed)).toMatchSnapshot();
  });

  it('M13: a roster of top-level and child agents and people', () => {
    const text = compose({
      agent: agentRecord({ name: 'qa', title: 'QA', persona: 'You test things.' }),
      summoner: { kind: 'agent', name: 'engineer' },
      roster: {
        agents: [
          { name: 'ceo', title: 'Chief Executive', reportsTo: null },
          { name: 'qa', title: 'QA', reportsTo: 'ceo' },
          { name: 'engineer', title: 'Engineer', reportsTo: 'ceo' },
          { name: 'intern', title: '', reportsTo: 'engineer' },
          { name: 'security', title: 'Security', reportsTo: null },
        ],
        people: [
          { nickname: 'dana', role: 'owner' },
          { nickname: 'lee', role: 'approver' },
          { nickname: 'sam', role: 'viewer' },
        ],
      },
      history: [],
      prompt: 'please verify the fix in checkout/validate.ts',
    });
    expect(text).toMatchSnapshot();
  });
});
