import { toDeliveryError } from '../../../../src/bots/github/github-sender';

const NOW = new Date('2026-01-01T00:00:00Z');
const failure = (status: number, message: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(message), { status, response: { headers } });

describe('P7: GitHub’s answers as the outbox’s advice', () => {
  it('P7: a 5xx backs off; a network error backs off', () => {
    expect(toDeliveryError('comment.create', failure(502, 'Bad Gateway'), NOW).retry).toEqual({
      kind: 'backoff',
    });
    expect(toDeliveryError('comment.create', new Error('ECONNRESET'), NOW).retry).toEqual({
      kind: 'backoff',
    });
  });

  it('P7: a secondary rate limit waits retry-after; a primary one waits until x-ratelimit-reset', () => {
    const secondary = failure(403, 'You have exceeded a secondary rate limit', { 'retry-after': '30' });
    expect(toDeliveryError('comment.create', secondary, NOW).retry).toEqual({ kind: 'after', ms: 30_000 });
    const primary = failure(403, 'API rate limit exceeded', {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW.getTime() / 1000 + 90),
    });
    expect(toDeliveryError('comment.create', primary, NOW).retry).toEqual({ kind: 'after', ms: 90_000 });
    // A secondary limit that names no time: a minute, as GitHub's guide asks.
    expect(toDeliveryError('x', failure(403, 'secondary rate limit'), NOW).retry).toEqual({
      kind: 'after',
      ms: 60_000,
    });
  });

  it('P7: a 403 of permissions, a 404 and a 422 are final', () => {
    for (const error of [
      failure(403, 'Resource not accessible by integration'),
      failure(404, 'Not Found'),
      failure(422, 'Validation Failed'),
    ])
      expect(toDeliveryError('comment.create', error, NOW).retry).toEqual({ kind: 'never' });
  });
});
