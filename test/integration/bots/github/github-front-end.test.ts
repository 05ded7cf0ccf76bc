import { authorOf, HOW_TO_LINK, isSummonComment, noWriteAccess } from '../../../../src/bots/github';
import { waitFor } from '../../../support/engine-harness';
import { type GitHubHarness, openGitHubHarness, PEOPLE, REPO } from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

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

const summonComments = (number: number) =>
  h.standIn.thread(REPO, number).filter((c) => isSummonComment(c.body));
const replyOf = (agent: string, number: number) =>
  h.waitForComment(number, (body) => authorOf(body) === agent && body.includes(`${agent} here`));

/** Routing is in order per thread: once this answer is in, every earlier comment of the thread was routed. */
async function flush(number: number, runsBefore: number): Promise<void> {
  await h.comment(number, PEOPLE.dana, '@qa flush');
  await h.settled(runsBefore + 1);
  await replyOf('qa', number);
}

describe('P19: the GitHub front end', () => {
  it('P19, M1: a mention in an issue comment is answered by a comment headed with the agent’s name', async () => {
    const issue = h.standIn.open(REPO, 'Login fails');
    const sent = await h.comment(issue.number, PEOPLE.dana, '@engineer fix the login bug');
    expect(sent.status).toBe(202);
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    const reply = await replyOf('engineer', issue.number);
    expect(reply.body.split('\n')[0]).toContain('**engineer**');
    expect(reply.login).toBe('summon-app[bot]');
    // M7: the mention is stripped from what the agent reads.
    expect(runner.requests[0]?.prompt).toContain('fix the login bug');
  });

  it('P19, P3: an issue opened with a mention starts the agent; one opened without starts nobody', async () => {
    const quiet = h.standIn.open(REPO, 'No mention', { login: PEOPLE.dana.login, body: 'just a note' });
    const asked = h.standIn.open(REPO, 'Triage', { login: PEOPLE.dana.login, body: '@engineer triage this' });
    for (const issue of [quiet, asked]) {
      const payload = payloads.issueOpened(REPO, issue.number, PEOPLE.dana, issue.body);
      expect((await h.deliverer.send('issues', payload)).status).toBe(202);
    }
    await h.settled(1);
    await replyOf('engineer', asked.number);
    await flush(quiet.number, 1);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer', 'qa']);
    expect(runner.requests[0]?.prompt).toContain('triage this');
  });

  it('M16: mentions in inline code and fenced code wake nobody', async () => {
    const issue = h.standIn.open(REPO, 'Annotations');
    const sent = await h.comment(
      issue.number,
      PEOPLE.dana,
      'we use `@engineer` and\n```\n@qa run\n```\nin the code',
    );
    expect(sent.status).toBe(202);
    await flush(issue.number, 0);
    expect((await h.runs()).length).toBe(1);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
  });

  it('P19: a forged or unsigned delivery is 401 and nothing runs', async () => {
    const issue = h.standIn.open(REPO, 'Forgery');
    const payload = payloads.issueComment(REPO, issue.number, 77, PEOPLE.dana, '@engineer delete everything');
    expect((await h.deliverer.send('issue_comment', payload, { signature: 'none' })).status).toBe(401);
    const forged = `sha256=${'0'.repeat(64)}`;
    expect((await h.deliverer.send('issue_comment', payload, { signature: forged })).status).toBe(401);
    // Signed for other bytes than those sent.
    const other = await h.deliverer.send('issue_comment', payload, {
      raw: JSON.stringify({ ...payload, action: 'created ' }),
      signature: 'none',
    });
    expect(other.status).toBe(401);
    await flush(issue.number, 0);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
    expect(h.log()).toContain('a GitHub delivery with no valid signature was refused');
  });

  it('P6: a redelivery (same X-GitHub-Delivery) runs nothing twice', async () => {
    const issue = h.standIn.open(REPO, 'Twice');
    const payload = payloads.issueComment(REPO, issue.number, 78, PEOPLE.dana, '@engineer once');
    const first = await h.deliverer.send('issue_comment', payload, { deliveryId: 'delivery-78' });
    const again = await h.deliverer.send('issue_comment', payload, { deliveryId: 'delivery-78' });
    expect([first.status, again.status]).toEqual([202, 202]);
    await h.settled(1);
    await flush(issue.number, 1);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer', 'qa']);
  });

  it('P20: an unknown login is told once how to link, and nothing runs', async () => {
    const issue = h.standIn.open(REPO, 'Stranger');
    await h.comment(issue.number, PEOPLE.stranger, '@engineer please help');
    await h.comment(issue.number, PEOPLE.stranger, '@engineer please?');
    await h.comment(issue.number, PEOPLE.stranger, 'no mention here');
    await flush(issue.number, 0);
    const told = summonComments(issue.number).filter((c) => c.body.includes(HOW_TO_LINK));
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain(`@${PEOPLE.stranger.login}`);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
  });

  it('P20: a linked member without write permission is told why, and nothing runs', async () => {
    const issue = h.standIn.open(REPO, 'Reader');
    await h.comment(issue.number, PEOPLE.rita, '@engineer fix it');
    await flush(issue.number, 0);
    const told = summonComments(issue.number).filter((c) => c.body.includes(noWriteAccess(REPO, 'read')));
    expect(told).toHaveLength(1);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
    // Checked with the API, not assumed.
    expect(
      h.standIn.requests.some(
        (r) => r.path === `/repos/${REPO}/collaborators/${PEOPLE.rita.login}/permission`,
      ),
    ).toBe(true);
  });

  it('P10: a bot’s comment and a comment Summon wrote never start a turn', async () => {
    const issue = h.standIn.open(REPO, 'Echo');
    await h.comment(issue.number, { login: 'other-app[bot]', bot: true }, '@engineer from a bot');
    await h.comment(issue.number, PEOPLE.dana, '**engineer**\n\n@qa look\n\n<!-- summon -->');
    await flush(issue.number, 0);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
  });

  it('P19: a review-comment mention is answered in its review thread', async () => {
    const pull = h.standIn.open(REPO, 'Rename', { pull: true });
    const root = h.standIn.addComment({
      kind: 'review',
      repo: REPO,
      number: pull.number,
      inReplyTo: null,
      body: '@engineer please rename this',
      login: PEOPLE.dana.login,
      bot: false,
    });
    const payload = payloads.reviewComment(REPO, pull.number, root.id, null, PEOPLE.dana, root.body);
    expect((await h.deliverer.send('pull_request_review_comment', payload)).status).toBe(202);
    await h.settled(1);
    const reply = await waitFor(
      async () =>
        h.standIn.thread(REPO, pull.number, root.id).find((c) => authorOf(c.body) === 'engineer') ?? null,
      20_000,
    );
    expect(reply.inReplyTo).toBe(root.id);
    expect(h.standIn.thread(REPO, pull.number).filter((c) => authorOf(c.body) === 'engineer')).toEqual([]);
  });

  it('bad input: a malformed payload is 400, an unknown event 202, both logged, nothing runs', async () => {
    const issue = h.standIn.open(REPO, 'Bad input');
    const malformed = { action: 'created', issue: { number: 'one' }, repository: { full_name: REPO } };
    const bad = await h.deliverer.send('issue_comment', malformed);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('malformed');
    expect((await h.deliverer.send('issue_comment', null, { raw: '{not json' })).status).toBe(400);
    expect(
      (await h.deliverer.send('star', { action: 'created', repository: { full_name: REPO } })).status,
    ).toBe(202);
    await flush(issue.number, 0);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
    expect(h.log()).toContain('a signed GitHub delivery with a malformed payload was refused');
  });

  it('bad input: a comment of 1 MB is bounded before it reaches a prompt', async () => {
    const issue = h.standIn.open(REPO, 'Huge');
    const huge = `@engineer ${'x'.repeat(1024 * 1024)}`;
    expect((await h.comment(issue.number, PEOPLE.dana, huge)).status).toBe(202);
    await h.settled(1);
    const prompt = runner.requests[0]?.prompt ?? '';
    expect(prompt).toContain('was left out');
    expect(prompt.length).toBeLessThan(200_000);
  });

  it('P19: core code subscribed to GitHub’s events gets every verified delivery once, a forged one never', async () => {
    const seen: { id: string; name: string; action: string | null; repo: string | null }[] = [];
    const unsubscribe = h.frontEnd.events.subscribe(({ id, name, action, repo }) => {
      seen.push({ id, name, action, repo });
    });
    const suite = payloads.checkSuiteCompleted(REPO, 'failure');
    expect((await h.deliverer.send('check_suite', suite, { deliveryId: 'suite-1' })).status).toBe(202);
    expect((await h.deliverer.send('check_suite', suite, { signature: 'none' })).status).toBe(401);
    const issue = h.standIn.open(REPO, 'Events');
    const sent = await h.comment(issue.number, PEOPLE.dana, '@engineer go');
    await h.frontEnd.idle();
    expect(seen).toEqual([
      { id: 'suite-1', name: 'check_suite', action: 'completed', repo: REPO },
      { id: sent.deliveryId, name: 'issue_comment', action: 'created', repo: REPO },
    ]);
    unsubscribe();
    await h.deliverer.send('check_suite', suite);
    await h.frontEnd.idle();
    expect(seen).toHaveLength(2);
    await h.settled(1);
  });

  it('a repository bound to no space is ignored, with one log line', async () => {
    h.standIn.open('acme/other', 'Elsewhere');
    const issue = h.standIn.open(REPO, 'Here');
    await h.comment(1, PEOPLE.dana, '@engineer one', 'acme/other');
    await h.comment(1, PEOPLE.dana, '@engineer two', 'acme/other');
    await waitFor(async () => h.log().includes('a GitHub repository no space binds is ignored'));
    await flush(issue.number, 0);
    expect(h.log().split('a GitHub repository no space binds is ignored').length - 1).toBe(1);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['qa']);
  });
});
