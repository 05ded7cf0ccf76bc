import { waitFor } from '../../../support/engine-harness';
import {
  type GitHubHarness,
  openGitHubHarness,
  PEOPLE,
  REPO,
  SLACK_DANA,
} from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

const runner = new ScriptedRunner({}, (request) => [
  { type: 'final', text: `${request.agent.name} here: on it.` },
]);
const SHA = 'c1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

let h: GitHubHarness;
beforeEach(async () => {
  runner.requests.length = 0;
  h = await openGitHubHarness({ runner, slack: true });
});
afterEach(async () => {
  await h.close();
});

describe('P22: a Slack thread and the pull request its agent opened (one conversation, two surfaces)', () => {
  it('P22: the PR body links the Slack thread, the thread shows the PR, and a PR comment reaches the same conversation', async () => {
    const slack = h.slack;
    const links = h.pullRequestLinks;
    if (slack === null || links === null) throw new Error('no Slack or links');
    const root = slack.standIn.addPersonMessage(CHANNEL, null);
    const said = await slack.deliver(
      eventFrom(
        'message-channel',
        { ts: root, user: SLACK_DANA, text: '@engineer add a health check endpoint' },
        'Ev0PR0001',
      ),
    );
    expect(said.status).toBe(200);
    const [run] = await h.settled(1);
    if (run === undefined) throw new Error('no run');

    // What `open_pull_request` does around GitHub's `pulls.create`: the body's lines, then the record.
    const body = await links.bodyLines(run.id);
    expect(body).toContain('Opened by engineer through Summon from this conversation: ');
    expect(body).toMatch(/https:\/\/\S+slack\.com\/archives\/C0GENERAL1\/p\d+/);
    const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, body, login: 'summon-app[bot]' });
    await links.recordOpened({
      runId: run.id,
      repo: REPO,
      number: pull.number,
      headSha: SHA,
      title: pull.title,
      url: `https://github.com/${REPO}/pull/${pull.number}`,
    });
    const card = await waitFor(
      async () =>
        slack.standIn.inThread(CHANNEL, root).find((m) => m.text.includes(`Pull request #${pull.number}`)) ??
        null,
      20_000,
    );
    expect(card.text).toContain(`https://github.com/${REPO}/pull/${pull.number}`);

    // A finished suite edits the thread's message in place.
    await h.deliverer.send(
      'check_suite',
      payloads.checkSuiteCompleted(REPO, 'success', { id: 901, headSha: SHA, pulls: [pull.number] }),
    );
    await h.frontEnd.idle();
    await waitFor(
      async () =>
        slack.standIn
          .inThread(CHANNEL, root)
          .find((m) => m.text.includes('checks passed') && m.ts === card.ts) ?? null,
      20_000,
    );

    // A reviewer's comment on the pull request reaches the agent in the Slack thread's conversation.
    await h.comment(pull.number, PEOPLE.dana, '@engineer please also log the latency');
    const [, second] = await h.settled(2);
    expect(second?.conversationId).toBe(run.conversationId);
    const prompt = runner.requests[1]?.prompt ?? '';
    expect(prompt).toContain('add a health check endpoint');
    expect(prompt).toContain('please also log the latency');
    await waitFor(
      async () =>
        slack.standIn.inThread(CHANNEL, root).filter((m) => m.text.includes('engineer here: on it.'))
          .length === 2
          ? true
          : null,
      20_000,
    );
  });
});
