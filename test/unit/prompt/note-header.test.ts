import { composePrompt, noteHeader, renderComposedPrompt } from '../../../src/core/prompt';
import { baseInput } from './prompt-fixtures';

describe('N12: the remote prompt header', () => {
  it('N12: names the relay, session and model, acting for the user', () => {
    expect(
      noteHeader({
        relayName: 'build-box',
        sessionTitle: 'nightly digest',
        model: 'claude-sonnet-5',
        fromAgent: 'a',
      }),
    ).toBe(
      '[Remote prompt from an agent on relay "build-box" · session "nightly digest" · claude-sonnet-5 · acting for the user]',
    );
  });

  it('N2, N5: unknown parts are left out; a relay without a name is this relay', () => {
    expect(noteHeader({ fromAgent: 'architect' })).toBe(
      '[Remote prompt from an agent on this relay · acting for the user]',
    );
    expect(noteHeader({ fromAgent: 'a', sessionTitle: 'digest', relayName: '  ' })).toBe(
      '[Remote prompt from an agent on this relay · session "digest" · acting for the user]',
    );
    expect(noteHeader({ fromAgent: 'a', model: 'gpt-x', sessionTitle: '' })).toBe(
      '[Remote prompt from an agent on this relay · gpt-x · acting for the user]',
    );
  });

  it('N12: a title stays on one line and cannot close its quotes', () => {
    expect(noteHeader({ fromAgent: 'a', sessionTitle: 'the "big"\nrewrite]' })).toBe(
      `[Remote prompt from an agent on this relay · session "the 'big' rewrite]" · acting for the user]`,
    );
  });
});

describe('N11, N12: a note-started turn', () => {
  const note = { relayName: 'build-box', fromAgent: 'architect' };
  const composed = composePrompt(baseInput({ note, summoner: { kind: 'agent', name: 'architect' } }));
  const promptBody = composed.sections.find((s) => s.id === 'prompt')?.body ?? '';

  it('N12: the prompt begins with the header line', () => {
    expect(promptBody.split('\n')[0]).toBe(noteHeader(note));
  });

  it('N11: the agent is told that its reply goes back to the asking agent', () => {
    expect(promptBody.split('\n')[1]).toBe(
      'This prompt was sent by the agent architect, not by a person. Your reply goes back to architect, so end it with the result architect needs.',
    );
    expect(promptBody.endsWith('\n\nfix the Brazil card bug and add a test')).toBe(true);
  });

  it('N12: the header is part of the prompt, not of the chat or the system prompt', () => {
    const text = renderComposedPrompt(composed);
    expect(text.split('[Remote prompt').length - 1).toBe(1);
    expect(composed.system).not.toContain('Remote prompt');
    expect(composed.sections.find((s) => s.id === 'conversation')?.body).not.toContain('Remote prompt');
  });

  it('a person’s turn has no header', () => {
    expect(renderComposedPrompt(composePrompt(baseInput()))).not.toContain('Remote prompt');
  });
});
