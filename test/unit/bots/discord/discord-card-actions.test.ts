import {
  cardActionOf,
  decodeCustomId,
  encodeCustomId,
} from '../../../../src/bots/discord/outbound/custom-id';

describe('Discord buttons decoded once into the core’s action', () => {
  it('N7, G4, N13, P15: each button of ours is one action with its record id', () => {
    const action = (customId: string) => {
      const button = decodeCustomId(customId);
      return button === null ? null : cardActionOf(button);
    };
    expect(action(encodeCustomId({ kind: 'note', action: 'open', messageId: 'm-1' }))).toEqual({
      kind: 'note',
      verb: 'open',
      messageId: 'm-1',
    });
    expect(action(encodeCustomId({ kind: 'approval', verdict: 'deny', approvalId: 'a-1' }))).toEqual({
      kind: 'approval',
      verdict: 'deny',
      approvalId: 'a-1',
    });
    expect(action(encodeCustomId({ kind: 'answer', option: 3, questionId: 'q-1' }))).toEqual({
      kind: 'answer',
      questionId: 'q-1',
      answer: '3',
    });
    expect(action(encodeCustomId({ kind: 'stop', runId: 'r-1' }))).toEqual({
      kind: 'stop-run',
      runId: 'r-1',
    });
  });

  it('P17: a custom id that is not ours, or malformed, decodes to nothing (answered as no longer active)', () => {
    for (const other of [
      'note:open:',
      'note:peek:m-1',
      'approval:maybe:a-1',
      'answer:0:q-1',
      'stop:all:r-1',
      'x',
    ]) {
      expect(decodeCustomId(other)).toBeNull();
    }
  });
});
