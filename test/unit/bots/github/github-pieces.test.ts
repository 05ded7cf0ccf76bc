import { boundedText, COMMENT_TEXT_LIMIT, readDelivery } from '../../../../src/bots/github/github-comment';
import { WritePermissions } from '../../../../src/bots/github/github-permissions';
import {
  authorOf,
  COMMENT_LIMIT,
  commentBodies,
  headerLine,
  isSummonComment,
  questionOf,
} from '../../../../src/bots/github/github-render';
import { decodeGitHubThreadId, encodeGitHubThreadId } from '../../../../src/bots/github/github-thread-id';
import { openFenceAt } from '../../../../src/core/text/open-fence';

const agent = { kind: 'agent' as const, name: 'engineer', avatarUrl: 'https://example.com/e.png' };
const comment = (body: string, type = 'User') => ({
  action: 'created',
  issue: { number: 7 },
  comment: { id: 11, body, user: { login: 'dana-gh', type } },
  repository: { full_name: 'Acme/API' },
  sender: { login: 'dana-gh', type },
});

describe('P19: GitHub thread ids', () => {
  it('name the repository lower-cased, the issue and a review thread', () => {
    const id = encodeGitHubThreadId({ repo: 'Acme/API', number: 12, reviewComment: 345 });
    expect(id).toBe('github:acme/api:12:345');
    expect(decodeGitHubThreadId(id)).toEqual({ repo: 'acme/api', number: 12, reviewComment: 345 });
    expect(decodeGitHubThreadId('github:acme/api:12')).toEqual({
      repo: 'acme/api',
      number: 12,
      reviewComment: null,
    });
  });

  it('refuse what is not a repository or an issue number', () => {
    expect(() => encodeGitHubThreadId({ repo: 'acme', number: 1, reviewComment: null })).toThrow(RangeError);
    expect(() => encodeGitHubThreadId({ repo: 'acme/api', number: 0, reviewComment: null })).toThrow(
      RangeError,
    );
    expect(decodeGitHubThreadId('github:acme/api:01')).toBeNull();
  });
});

describe('P19: comments Summon writes', () => {
  it('start with a header line naming the agent with its avatar, and end with the hidden marker', () => {
    const [body = ''] = commentBodies({ as: agent, content: { kind: 'text', text: 'Fixed.' } });
    const [header] = body.split('\n');
    expect(header).toContain('<img src="https://example.com/e.png"');
    expect(header).toContain('**engineer**');
    expect(authorOf(body)).toBe('engineer');
    expect(isSummonComment(body)).toBe(true);
    expect(headerLine({ kind: 'system' })).toBe('**Summon**');
  });

  it('P7: a long reply is split under 65,536 characters, every part headed, no fence broken', () => {
    const code = Array.from({ length: 4000 }, (_, i) => `line ${i} of the listing`).join('\n');
    const text = `Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
    const bodies = commentBodies({ as: agent, content: { kind: 'text', text } });
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) {
      expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
      expect(authorOf(body)).toBe('engineer');
      expect(openFenceAt(body)).toBeNull();
    }
  });

  it('N13: a pending question card carries its id, an answered one does not', () => {
    const card = (status: 'pending' | 'answered') => ({
      questionId: 'q-42',
      agent: 'engineer',
      text: 'Which one?',
      options: ['a', 'b'],
      status,
      answer: status === 'answered' ? 'b' : null,
      answeredBy: status === 'answered' ? 'dana' : null,
    });
    const [pending = ''] = commentBodies({ as: agent, content: { kind: 'question', card: card('pending') } });
    const [answered = ''] = commentBodies({
      as: agent,
      content: { kind: 'question', card: card('answered') },
    });
    expect(questionOf(pending)).toBe('q-42');
    expect(questionOf(answered)).toBeNull();
  });
});

describe('P19, P10: deliveries read as comments', () => {
  it('an issue comment is a reply in the issue’s thread, its repository lower-cased', () => {
    expect(readDelivery('issue_comment', comment('@engineer hi'))).toEqual({
      kind: 'comment',
      comment: expect.objectContaining({
        repo: 'acme/api',
        thread: 'github:acme/api:7',
        messageRef: 'c11',
        topLevel: false,
        login: 'dana-gh',
        text: '@engineer hi',
      }),
    });
  });

  it('P10: a bot’s comment and one carrying Summon’s marker are ignored', () => {
    expect(readDelivery('issue_comment', comment('@engineer hi', 'Bot')).kind).toBe('ignored');
    expect(readDelivery('issue_comment', comment('x\n<!-- summon -->')).kind).toBe('ignored');
  });

  it('a payload not shaped as its event says is malformed; another event is ignored', () => {
    expect(readDelivery('issue_comment', { action: 'created', issue: {} }).kind).toBe('malformed');
    expect(readDelivery('watch', {}).kind).toBe('ignored');
    expect(readDelivery('issue_comment', { ...comment('x'), action: 'deleted' }).kind).toBe('ignored');
  });

  it('a comment’s text is bounded before it can reach a prompt', () => {
    const bounded = boundedText('y'.repeat(1_000_000));
    expect(bounded.length).toBeLessThanOrEqual(COMMENT_TEXT_LIMIT);
    expect(bounded).toContain('was left out');
    expect(boundedText('short')).toBe('short');
  });
});

describe('P20: write permission', () => {
  it('is asked of GitHub, remembered for its time, and a 404 is no permission', async () => {
    let now = 0;
    const asked: string[] = [];
    const permissions = new WritePermissions(
      async (_repo, login) => {
        asked.push(login);
        if (login === 'nobody') throw Object.assign(new Error('Not Found'), { status: 404 });
        return login === 'writer' ? 'write' : 'read';
      },
      { ttlMs: 1000, now: () => now },
    );
    expect(await permissions.canWrite('acme/api', 'writer')).toEqual({ write: true, permission: 'write' });
    expect((await permissions.canWrite('acme/api', 'reader')).write).toBe(false);
    expect(await permissions.canWrite('acme/api', 'nobody')).toEqual({ write: false, permission: 'none' });
    await permissions.canWrite('acme/api', 'Writer');
    expect(asked).toEqual(['writer', 'reader', 'nobody']);
    now = 2000;
    await permissions.canWrite('acme/api', 'writer');
    expect(asked).toHaveLength(4);
  });
});
