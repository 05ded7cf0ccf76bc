import { type FoldCandidate, mayFold, noteDisplay, toggleNote } from '../../../src/core/notes';

describe('note folding', () => {
  it('N9: an auto note is open while its turn works and folds once it has answered, failed or stopped', () => {
    expect(noteDisplay('auto', 'working')).toBe('open');
    expect(noteDisplay('auto', 'answered')).toBe('folded');
    expect(noteDisplay('auto', 'failed')).toBe('folded');
    expect(noteDisplay('auto', 'stopped')).toBe('folded');
  });

  it('N9: a note a person opened or folded by hand stays as they left it', () => {
    for (const turn of ['working', 'answered', 'failed', 'stopped'] as const) {
      expect(noteDisplay('open', turn)).toBe('open');
      expect(noteDisplay('folded', turn)).toBe('folded');
    }
  });

  it('N7, N9: toggling stores the person choice explicitly, whatever it was', () => {
    for (const current of ['auto', 'open', 'folded'] as const) {
      expect(toggleNote(current, 'open')).toBe('open');
      expect(toggleNote(current, 'fold')).toBe('folded');
    }
    // Folding a working note by hand keeps it folded while the turn still works.
    expect(noteDisplay(toggleNote('auto', 'fold'), 'working')).toBe('folded');
  });

  it('N6: only the note folds; its reply, the turn in progress and its cards are shown in full', () => {
    expect(mayFold({ authorKind: 'agent', role: 'prompt' })).toBe(true);
    expect(mayFold({ authorKind: 'agent', role: 'reply' })).toBe(false);
    expect(mayFold({ authorKind: 'agent', role: 'card' })).toBe(false);
    expect(mayFold({ authorKind: 'system', role: 'card' })).toBe(false);
  });

  it.each<[string, FoldCandidate]>([
    ["a person's own message", { authorKind: 'person', role: 'prompt' }],
    ['a reply to people', { authorKind: 'agent', role: 'reply' }],
    ['a reply to an agent note', { authorKind: 'agent', role: 'reply' }],
    [
      "an agent's prompt that steers a running turn",
      { authorKind: 'agent', role: 'prompt', steersRunningTurn: true },
    ],
    ['a system message', { authorKind: 'system', role: 'prompt' }],
  ])('N10: never folded: %s', (_name, message) => {
    expect(mayFold(message)).toBe(false);
  });
});
