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

  it('E4: “Approve for this conversation” is an approval button of its own, within 100 characters', () => {
    const id = encodeCustomId({
      kind: 'approval',
      verdict: 'approve-conversation',
      approvalId: '0b6f7c3e-2d4a-4c8e-9f1a-5b3c2d1e0f9a',
    });
    expect(id.length).toBeLessThanOrEqual(100);
    const button = decodeCustomId(id);
    expect(button === null ? null : cardActionOf(button)).toEqual({
      kind: 'approval',
      verdict: 'approve-conversation',
      approvalId: '0b6f7c3e-2d4a-4c8e-9f1a-5b3c2d1e0f9a',
    });
    for (const other of ['approval:approve-all:a-1', 'approval:approve-:a-1', 'approval:-conversation:a-1']) {
      expect(decodeCustomId(other)).toBeNull();
    }
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
