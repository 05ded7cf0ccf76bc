import { notifiesOnFinish } from '../../../src/core/notes';

describe('notifiesOnFinish', () => {
  it('N14: a run started by an agent sends no "reply ready" or "failed" notification', () => {
    expect(notifiesOnFinish({ startedByAgentId: 'a-ceo' })).toBe(false);
  });

  it('N14: a run started by a person notifies on finish', () => {
    expect(notifiesOnFinish({ startedByAgentId: null })).toBe(true);
  });
});
