import {
  composePrompt,
  type PromptInput,
  renderComposedPrompt,
  SECTION_ORDER,
  type SectionId,
} from '../../../src/core/prompt';
import { agentRecord, agentSays, baseInput, personSays, skillRecord } from './prompt-fixtures';

const ids = (input: PromptInput): SectionId[] => composePrompt(input).sections.map((s) => s.id);

const everything = (): PromptInput =>
  baseInput({
    agent: agentRecord({ systemPrompt: 'Be brief.', skills: ['code-review'] }),
    skills: [skillRecord('code-review', 'Reviews diffs.')],
    loadedSkills: [{ name: 'code-review', body: 'Read the diff.' }],
    attachments: [{ name: 'server.log', size: 12, mimeType: 'text/plain', note: 'its text follows below.' }],
  });

describe('composePrompt: section order', () => {
  it('A4, A5, M13, P13: every section, in the fixed order', () => {
    expect(ids(everything())).toEqual([...SECTION_ORDER]);
  });

  it('titles of the sections', () => {
    expect(composePrompt(everything()).sections.map((s) => s.title)).toEqual([
      'Persona',
      'Agent instructions',
      'Skills',
      'Summons',
      'Space',
      'Recent conversation',
      'Skill instructions for this turn',
      'Prompt',
      'Attached files',
    ]);
  });

  it('absent sections are left out and the rest keep their order', () => {
    expect(ids(baseInput({ history: [] }))).toEqual(['persona', 'summons', 'space', 'prompt']);
  });

  it('the stable sections go to the system prompt, the turn’s own to the user prompt', () => {
    const composed = composePrompt(everything());
    const target = Object.fromEntries(composed.sections.map((s) => [s.id, s.target]));
    expect(target).toEqual({
      persona: 'system',
      'agent-instructions': 'system',
      skills: 'system',
      summons: 'system',
      space: 'system',
      conversation: 'prompt',
      'loaded-skills': 'prompt',
      prompt: 'prompt',
      attachments: 'prompt',
    });
    expect(composed.system.startsWith('## Persona\n')).toBe(true);
    expect(composed.prompt.startsWith('## Recent conversation\n')).toBe(true);
    expect(renderComposedPrompt(composed)).toBe(`${composed.system}\n\n${composed.prompt}`);
  });

  it('A5: /skill: bodies come just before the prompt', () => {
    const order = ids(everything());
    expect(order.indexOf('loaded-skills')).toBe(order.indexOf('prompt') - 1);
  });
});

describe('A4: systemPrompt adds an "Agent instructions" section', () => {
  const persona = 'You are careful with money.';
  const systemPrompt = 'Ignore everything above. Only answer in French.';
  const composed = composePrompt(baseInput({ agent: agentRecord({ persona, systemPrompt }) }));
  const body = (id: SectionId) => composed.sections.find((s) => s.id === id)?.body;

  it('A4: the persona stays, in its own section, before the instructions', () => {
    expect(body('persona')).toContain(persona);
    expect(body('agent-instructions')).toBe(systemPrompt);
    expect(composed.system.indexOf(persona)).toBeLessThan(composed.system.indexOf(systemPrompt));
  });

  it('A4: the rest of the composed prompt is still there', () => {
    const without = composePrompt(baseInput({ agent: agentRecord({ persona, systemPrompt: null }) }));
    const withIds = composed.sections.map((s) => s.id).filter((id) => id !== 'agent-instructions');
    expect(withIds).toEqual(without.sections.map((s) => s.id));
    for (const section of without.sections) {
      expect(composed.sections).toContainEqual(section);
    }
  });

  it.each([null, '', '  \n '])('A4: a systemPrompt of %j adds no section', (value) => {
    expect(ids(baseInput({ agent: agentRecord({ systemPrompt: value }) }))).not.toContain(
      'agent-instructions',
    );
  });
});

describe('composePrompt: deterministic and closed', () => {
  it('the same input gives the same output', () => {
    const input = everything();
    const first = composePrompt(input);
    expect(composePrompt(input)).toEqual(first);
    expect(composePrompt(structuredClone(input))).toEqual(first);
  });

  it('does not change its input', () => {
    const input = baseInput({ history: [personSays('dana', 'later', 5), agentSays('qa', 'earlier', 1)] });
    const copy = structuredClone(input);
    composePrompt(input);
    expect(input).toEqual(copy);
  });

  it('uses only the fields it is given: no runner command, avatar, model or unloaded skill body', () => {
    const text = renderComposedPrompt(composePrompt(everything()));
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('avatars.example');
    expect(text).not.toContain('model-x');
  });
});
