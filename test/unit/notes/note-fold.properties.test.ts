import fc from 'fast-check';
import type { NoteFoldState } from '../../../src/core/model/message';
import { NOTE_TURN_STATES, type NoteTurnState, noteDisplay, toggleNote } from '../../../src/core/notes';

type Event = { kind: 'toggle'; action: 'open' | 'fold' } | { kind: 'turn'; state: NoteTurnState };

const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    kind: fc.constant('toggle' as const),
    action: fc.constantFrom('open' as const, 'fold' as const),
  }),
  fc.record({ kind: fc.constant('turn' as const), state: fc.constantFrom(...NOTE_TURN_STATES) }),
);

describe('note fold properties', () => {
  it('N9: after a person toggles, turn-state changes never change what they chose', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let stored: NoteFoldState = 'auto';
        let turn: NoteTurnState = 'working';
        let chosen: 'open' | 'folded' | undefined;
        for (const e of events) {
          if (e.kind === 'toggle') {
            stored = toggleNote(stored, e.action);
            chosen = e.action === 'open' ? 'open' : 'folded';
          } else {
            turn = e.state;
          }
          // Untouched by a person, the note follows its turn; touched, it stays as they left it.
          const expected = chosen ?? (turn === 'working' ? 'open' : 'folded');
          expect(noteDisplay(stored, turn)).toBe(expected);
          expect(stored).toBe(chosen ?? 'auto');
        }
      }),
    );
  });
});
