import { conversationMarker } from '../../../src/core/notes';

describe('conversationMarker', () => {
  it('N4: a conversation an agent of this relay created is marked via agent with its title', () => {
    expect(conversationMarker({ sessionTitle: 'nightly digest', relayName: 'build-box' })).toBe(
      'via agent · "nightly digest"',
    );
  });

  it('N4: a conversation from a paired relay is marked with that relay', () => {
    expect(conversationMarker({ paired: true, relayName: 'build-box', sessionTitle: 'nightly digest' })).toBe(
      '↗ build-box',
    );
  });

  it('N2, N4: unknown parts are left out', () => {
    expect(conversationMarker({})).toBe('via agent');
    expect(conversationMarker({ sessionTitle: '   ' })).toBe('via agent');
    expect(conversationMarker({ paired: true })).toBe('↗ a paired relay');
  });
});
