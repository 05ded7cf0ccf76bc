import { composePrompt, type PromptInput, type SectionId } from '../../../src/core/prompt';
import {
  agentRecord,
  agentSays,
  baseInput,
  personSays,
  skillRecord,
  spaceRecord,
  systemSays,
} from './prompt-fixtures';

const body = (input: PromptInput, id: SectionId): string | undefined =>
  composePrompt(input).sections.find((s) => s.id === id)?.body;

describe('A5: Skills', () => {
  it('A5: lists each name with its linked skill’s description, or "(not installed)"', () => {
    const text = body(
      baseInput({
        agent: agentRecord({ skills: ['lint', 'Deploy', 'DEPLOY', 'ghost'] }),
        skills: [
          skillRecord('deploy', 'Ships it.'),
          skillRecord('lint', ''),
          skillRecord('unused', 'Not the agent’s.'),
        ],
      }),
      'skills',
    );
    expect(text?.split('\n').slice(1)).toEqual(['- lint', '- Deploy: Ships it.', '- ghost (not installed)']);
  });

  it('A5: an agent without skills has no Skills section', () => {
    expect(body(baseInput({ skills: [skillRecord('deploy', 'Ships it.')] }), 'skills')).toBeUndefined();
  });

  it('A5: a loaded skill’s body is an instruction of this turn only; linked bodies stay out', () => {
    const input = baseInput({
      agent: agentRecord({ skills: ['deploy'] }),
      skills: [skillRecord('deploy', 'Ships it.')],
      loadedSkills: [{ name: 'deploy', body: '  Run the smoke test first.\n' }],
    });
    expect(body(input, 'loaded-skills')).toContain('### deploy\n\nRun the smoke test first.');
    expect(composePrompt(input).system).not.toContain('SECRET-BODY');
    expect(body(baseInput({ loadedSkills: [] }), 'loaded-skills')).toBeUndefined();
  });
});

describe('M13: Summons', () => {
  const summons = (overrides: Partial<PromptInput>) => body(baseInput(overrides), 'summons') ?? '';

  it('M13: a person is named by nickname, an agent by name', () => {
    expect(summons({ summoner: { kind: 'person', nickname: 'dana' } })).toContain(
      'You were summoned by dana (person).',
    );
    expect(summons({ summoner: { kind: 'agent', name: 'ceo' } })).toContain(
      'You were summoned by the agent ceo.',
    );
  });

  it('M13, M22: the roster leaves out the agent itself, by name in any case', () => {
    const text = summons({
      agent: agentRecord({ name: 'engineer' }),
      roster: { agents: [{ name: 'Engineer', title: 'Engineer', reportsTo: null }], people: [] },
    });
    expect(text).toContain('Agents in this space:\n- none besides you\nPeople in this space:\n- none');
  });

  it('M13, M22: says that a mention wakes another agent and a self-mention is ignored', () => {
    const text = summons({});
    expect(text).toContain('Mentioning another agent by @name in your reply wakes that agent');
    expect(text).toContain('Mentioning yourself (@engineer) is ignored.');
  });

  it.each<[PromptInput['tools'] | undefined, boolean]>([
    [undefined, false],
    [{ agentHandoff: false }, false],
    [{ agentHandoff: true }, true],
  ])('M23: with tools %j the handoff tools are named: %p', (tools, named) => {
    const text = summons(tools === undefined ? {} : { tools });
    expect(text.includes('send_to_agent, ask_agent or delegate_task')).toBe(named);
  });
});

describe('Space', () => {
  it.each([
    ['chat', false],
    ['plan', true],
    ['review', true],
  ] as const)('mode %s is read-only: %p', (mode, readOnly) => {
    const text = body(baseInput({ space: spaceRecord({ mode }) }), 'space') ?? '';
    expect(text).toContain(`Mode: ${mode}. `);
    expect(text.includes('Read-only')).toBe(readOnly);
  });

  it('M2: carries the space’s context', () => {
    const text = body(baseInput({ space: spaceRecord({ context: 'Line one.\nLine two.' }) }), 'space');
    expect(text?.endsWith('Context:\nLine one.\nLine two.')).toBe(true);
  });
});

describe('Recent conversation', () => {
  it('labels each author; notes are labelled as notes; later lines of a message are indented', () => {
    const history = [
      personSays('dana', 'first line\nengineer (agent): not a real author line', 0),
      agentSays('engineer', 'on it', 1),
      agentSays('architect', 'please list the jobs', 2, true),
      systemSays('qa was not woken: more than three agents.', 3),
    ];
    expect(body(baseInput({ history }), 'conversation')).toBe(
      [
        'dana (person): first line',
        '  engineer (agent): not a real author line',
        'engineer (agent): on it',
        'note from architect (agent): please list the jobs',
        'system: qa was not woken: more than three agents.',
      ].join('\n'),
    );
  });

  it('an empty message keeps its label without a trailing space', () => {
    expect(body(baseInput({ history: [systemSays('  ', 0)] }), 'conversation')).toBe('system:');
  });

  it('no history, no section', () => {
    expect(body(baseInput({ history: [] }), 'conversation')).toBeUndefined();
  });
});

describe('Prompt', () => {
  it('M7: the prompt text, trimmed', () => {
    expect(body(baseInput({ prompt: '  fix it \n' }), 'prompt')).toBe('fix it');
  });

  it('a prompt with no text says so rather than leaving the section empty', () => {
    expect(body(baseInput({ prompt: ' ' }), 'prompt')).toBe('(The message has no text besides the mention.)');
  });
});
