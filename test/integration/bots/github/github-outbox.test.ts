import { authorOf } from '../../../../src/bots/github';
import { waitFor } from '../../../support/engine-harness';
import { type GitHubHarness, openGitHubHarness, PEOPLE, REPO } from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';

const runner = new ScriptedRunner({}, (request) => [
  { type: 'final', text: `${request.agent.name} here: on it.` },
]);

let h: GitHubHarness;
beforeEach(async () => {
  runner.requests.length = 0;
  h = await openGitHubHarness({ runner });
});
afterEach(async () => {
  await h.close();
});

const outboxRows = () => h.store.transaction(async (tx) => (await tx.outbox.unfinished('github')).length);

describe('P7: GitHub comments go through the outbox', () => {
  it('P7: a reply whose post GitHub answers 502 is retried and posted once', async () => {
    const issue = h.standIn.open(REPO, 'Flaky');
    const path = new RegExp(`^/repos/${REPO}/issues/${issue.number}/comments$`);
    h.standIn.failures.push({ method: 'POST', path, status: 502 });
    await h.comment(issue.number, PEOPLE.dana, '@engineer fix it');
    await h.settled(1);
    await h.waitForComment(issue.number, (body) => authorOf(body) === 'engineer');
    await h.frontEnd.deliverer.drain();
    const posts = h.standIn.requests.filter((r) => r.method === 'POST' && path.test(r.path));
    // The status card's post failed once and was retried; then the reply: each in the thread once.
    expect(posts.map((r) => r.status)).toEqual([502, 201, 201]);
    const summon = h.standIn.thread(REPO, issue.number).filter((c) => c.login === 'summon-app[bot]');
    expect(summon).toHaveLength(2);
    expect(summon.filter((c) => c.body.includes('engineer here: on it.'))).toHaveLength(1);
    expect(await outboxRows()).toBe(0);
    expect(h.log()).toContain('outgoing call will be retried');
  });

  it('P7: a 403 secondary rate limit waits GitHub’s retry-after, then posts once', async () => {
    const issue = h.standIn.open(REPO, 'Busy');
    const path = new RegExp(`^/repos/${REPO}/issues/${issue.number}/comments$`);
    h.standIn.failures.push({ method: 'POST', path, status: 403, headers: { 'retry-after': '1' } });
    await h.comment(issue.number, PEOPLE.dana, '@engineer fix it');
    await h.settled(1);
    await h.waitForComment(issue.number, (body) => authorOf(body) === 'engineer');
    await h.frontEnd.deliverer.drain();
    const posts = h.standIn.requests.filter((r) => r.method === 'POST' && path.test(r.path));
    expect(posts.map((r) => r.status)).toEqual([403, 201, 201]);
    // The retry waited what GitHub asked (1 s), not the test's 20 ms backoff.
    expect(h.log()).toMatch(/"waitMs":1000/);
    const summon = h.standIn.thread(REPO, issue.number).filter((c) => c.login === 'summon-app[bot]');
    expect(summon.filter((c) => c.body.includes('engineer here: on it.'))).toHaveLength(1);
  });

  it('P7: a refusal (404) is final, not retried', async () => {
    const issue = h.standIn.open(REPO, 'Locked');
    const path = new RegExp(`^/repos/${REPO}/issues/${issue.number}/comments$`);
    h.standIn.failures.push({ method: 'POST', path, status: 404 });
    await h.comment(issue.number, PEOPLE.dana, '@engineer fix it');
    await h.settled(1);
    await waitFor(async () => (h.log().includes('outgoing call failed') ? true : null), 20_000);
    const posts = h.standIn.requests.filter((r) => r.method === 'POST' && path.test(r.path));
    // The status card's post is refused once and not tried again; the reply still goes out.
    expect(posts.map((r) => r.status).slice(0, 1)).toEqual([404]);
    expect(posts.filter((r) => r.status === 404)).toHaveLength(1);
  });
});
