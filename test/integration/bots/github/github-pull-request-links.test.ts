import { authorOf, isSummonComment } from '../../../../src/bots/github';
import { waitFor } from '../../../support/engine-harness';
import { type GitHubHarness, openGitHubHarness, PEOPLE, REPO } from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

const runner = new ScriptedRunner({}, (request) => [
  { type: 'final', text: `${request.agent.name} here: on it.` },
]);

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const NEXT_SHA = 'b1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

let h: GitHubHarness;
beforeEach(async () => {
  runner.requests.length = 0;
  h = await openGitHubHarness({ runner });
});
afterEach(async () => {
  await h.close();
});

/**
 * The conversation's home thread is an issue here (the core's links are the same for every
 * platform's thread); the pull request is another number of the same repository.
 */
async function agentOpensPullRequest() {
  const home = h.standIn.open(REPO, 'Health check');
  await h.comment(home.number, PEOPLE.dana, '@engineer add a health check endpoint');
  const [run] = await h.settled(1);
  if (run === undefined) throw new Error('no run');
  const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'summon-app[bot]' });
  const links = h.pullRequestLinks;
  if (links === null) throw new Error('no links');
  await links.recordOpened({
    runId: run.id,
    repo: REPO,
    number: pull.number,
    headSha: SHA,
    title: pull.title,
    url: `https://github.com/${REPO}/pull/${pull.number}`,
  });
  return { home, pull, run };
}

const card = (home: number, pull: number) =>
  h.standIn
    .thread(REPO, home)
    .find((c) => isSummonComment(c.body) && c.body.includes(`Pull request #${pull}`));

describe('P22, P23: a thread and the pull request its agent opened', () => {
  it('P22: the thread shows the pull request in one message, edited in place as its checks and head change', async () => {
    const { home, pull } = await agentOpensPullRequest();
    expect(card(home.number, pull.number)?.body).toContain('checks running');
    const suite = payloads.checkSuiteCompleted(REPO, 'success', {
      id: 700,
      headSha: SHA,
      pulls: [pull.number],
    });
    await h.deliverer.send('check_suite', suite);
    await h.frontEnd.idle();
    await waitFor(
      async () => (card(home.number, pull.number)?.body.includes('checks passed') ? true : null),
      20_000,
    );
    const moved = payloads.pullRequest(REPO, 'synchronize', {
      number: pull.number,
      title: pull.title,
      headSha: NEXT_SHA,
    });
    await h.deliverer.send('pull_request', moved);
    await h.frontEnd.idle();
    await waitFor(
      async () => (card(home.number, pull.number)?.body.includes('checks running') ? true : null),
      20_000,
    );
    const merged = payloads.pullRequest(REPO, 'closed', {
      number: pull.number,
      title: pull.title,
      headSha: NEXT_SHA,
      merged: true,
    });
    await h.deliverer.send('pull_request', merged);
    await h.frontEnd.idle();
    await waitFor(
      async () => (card(home.number, pull.number)?.body.includes('merged') ? true : null),
      20_000,
    );
    // P23: a merged pull request's failing suite wakes nobody (nothing left to fix there).
    await h.deliverer.send(
      'check_suite',
      payloads.checkSuiteCompleted(REPO, 'failure', { id: 701, headSha: NEXT_SHA, pulls: [pull.number] }),
    );
    await h.frontEnd.idle();
    expect(await h.runs()).toHaveLength(1);
    // One message, edited: never a second card.
    expect(
      h.standIn.thread(REPO, home.number).filter((c) => c.body.includes(`Pull request #${pull.number}`)),
    ).toHaveLength(1);
  });

  it('P23: a failing suite wakes the agent once per head commit, with the failing checks’ names and summaries', async () => {
    const { home, pull, run } = await agentOpensPullRequest();
    h.standIn.checkRuns.set(801, [
      { name: 'unit tests', conclusion: 'failure', summary: '1 failed: GET /health answered 500' },
      { name: 'lint', conclusion: 'success', summary: 'clean' },
    ]);
    h.standIn.checkRuns.set(802, [{ name: 'e2e', conclusion: 'failure', summary: 'timeout' }]);
    const failed = payloads.checkSuiteCompleted(REPO, 'failure', {
      id: 801,
      headSha: SHA,
      pulls: [pull.number],
    });
    await h.deliverer.send('check_suite', failed, { deliveryId: 'suite-801' });
    await h.frontEnd.idle();
    const [, woken] = await h.settled(2);
    expect(woken?.agentId).toBe(run.agentId);
    expect(woken?.conversationId).toBe(run.conversationId);
    const prompt = runner.requests[1]?.prompt ?? '';
    expect(prompt).toContain('unit tests: 1 failed: GET /health answered 500');
    expect(prompt).not.toContain('lint');
    await waitFor(
      async () => (card(home.number, pull.number)?.body.includes('checks failed') ? true : null),
      20_000,
    );
    // A redelivery, and a second failing suite on the same commit: nobody is woken again.
    await h.deliverer.send('check_suite', failed, { deliveryId: 'suite-801' });
    const second = payloads.checkSuiteCompleted(REPO, 'failure', {
      id: 802,
      headSha: SHA,
      pulls: [pull.number],
    });
    await h.deliverer.send('check_suite', second);
    await h.frontEnd.idle();
    expect(await h.runs()).toHaveLength(2);
    expect(h.log()).toContain('a failing commit already woke its agent');
    // A new head commit that fails wakes it again.
    await h.deliverer.send(
      'pull_request',
      payloads.pullRequest(REPO, 'synchronize', {
        number: pull.number,
        title: pull.title,
        headSha: NEXT_SHA,
      }),
    );
    await h.frontEnd.idle();
    await h.deliverer.send(
      'check_suite',
      payloads.checkSuiteCompleted(REPO, 'failure', { id: 802, headSha: NEXT_SHA, pulls: [pull.number] }),
    );
    await h.frontEnd.idle();
    await h.settled(3);
  });

  it('P22: a comment on the pull request reaches the agent in the same conversation as the thread', async () => {
    const { home, pull, run } = await agentOpensPullRequest();
    await h.comment(pull.number, PEOPLE.dana, '@engineer please also log the latency');
    const [, second] = await h.settled(2);
    expect(second?.conversationId).toBe(run.conversationId);
    // The agent's prompt shows the thread's earlier messages: one conversation, two surfaces.
    const prompt = runner.requests[1]?.prompt ?? '';
    expect(prompt).toContain('add a health check endpoint');
    expect(prompt).toContain('please also log the latency');
    // The reply is in the conversation’s thread (its home surface: cards, approvals and stream live there).
    await waitFor(
      async () =>
        h.standIn.thread(REPO, home.number).filter((c) => c.body.includes('engineer here: on it.')).length ===
        2
          ? true
          : null,
      20_000,
    );
    expect(h.standIn.thread(REPO, pull.number).filter((c) => authorOf(c.body) === 'engineer')).toEqual([]);
  });
});
