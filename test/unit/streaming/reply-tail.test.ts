import { replyTail } from '../../../src/core/streaming/reply-tail';
import { openFenceAt } from '../../../src/core/text/open-fence';

describe('P14: what a stream still shows once the final reply is known', () => {
  it('follows on where the stream is the start of the reply', () => {
    expect(replyTail('All gr', 'All green.')).toBe('een.');
    expect(replyTail('', 'All green.')).toBe('All green.');
    expect(replyTail('All green.', 'All green.')).toBe('');
  });

  it('adds nothing where the stream ends with the reply (words between tool calls above it)', () => {
    expect(replyTail('Let me check.\n\nAll green.', 'All green.')).toBe('');
  });

  it('adds the whole reply, once, after a stream that does not lead to it', () => {
    expect(replyTail('Let me check.', 'All green.')).toBe('\n\nAll green.');
  });
});

describe('P7: the fence open at the end of a text', () => {
  it('names the opening line of an open fence, and null once it is closed', () => {
    expect(openFenceAt('Here:\n```ts\nconst a = 1;\n')).toBe('```ts');
    expect(openFenceAt('Here:\n```ts\nconst a = 1;\n```\nDone.')).toBeNull();
    expect(openFenceAt('~~~~\n```\n')).toBe('~~~~');
    expect(openFenceAt('no code')).toBeNull();
  });
});
