import type { RunnerEvent, RunnerRequest } from '../../../../src/core/ports/runner';
import { waitFor } from '../../../support/engine-harness';
import {
  approvalAskingTurn,
  type GitHubHarness,
  openGitHubHarness,
  PEOPLE,
  REPO,
  SLACK_DANA,
} from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

let h: GitHubHarness;
/** What the engineer's turn does once it is asked: set per step. */
let engineer: (request: RunnerRequest) => AsyncIterable<RunnerEvent>;
const runner = new ScriptedRunner({ engineer: (request) => engineer(request) });

beforeEach(async () => {
  engineer = async function* () {
    yield { type: 'final', text: 'engineer here: on it.' };
  };
  h = await openGitHubHarness({ runner, slack: true, checks: true });
});
afterEach(async () => {
  await h.close();
});

const slackOf = () => {
  if (h.slack === null) throw new Error('no Slack');
  return h.slack;
};
const checks = () => {
  if (h.checks === null) throw new Error('no checks stand-in');
  return h.checks;
};
const turnChecks = () => checks().named('summon / engineer');
const approvalCheck = () => checks().named('summon / engineer / approval')[0];

/**
 * P22: dana asks in a Slack thread, and the agent's turn opens a pull request from it (what
 * `open_pull_request` does around GitHub's `pulls.create`: the body's lines, then the record).
 */
async function pullRequestFromSlack() {
  const slack = slackOf();
  const links = h.pullRequestLinks;
  if (links === null) throw new Error('no links');
  const root = slack.standIn.addPersonMessage(CHANNEL, null);
  const event = { ts: root, user: SLACK_DANA, text: '@engineer add a health check endpoint' };
  expect((await slack.deliver(eventFrom('message-channel', event, 'Ev0JOIN001'))).status).toBe(200);
  const [run] = await h.settled(1);
  if (run === undefined) throw new Error('no run');
  const body = await links.bodyLines(run.id);
  const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, body, login: 'summon-app[bot]' });
  await links.recordOpened({
    runId: run.id,
    repo: REPO,
    number: pull.number,
    headSha: checks().headOf(REPO, pull.number),
    title: pull.title,
    url: `https://github.com/${REPO}/pull/${pull.number}`,
  });
  return { root, number: pull.number, runId: run.id };
}

/** dana writes again in the Slack thread, mentioning the engineer. */
async function sayInThread(root: string, text: string, eventId: string) {
  const slack = slackOf();
  const ts = slack.standIn.addPersonMessage(CHANNEL, root);
  const event = { ts, thread_ts: root, user: SLACK_DANA, text };
  expect((await slack.deliver(eventFrom('message-channel', event, eventId))).status).toBe(200);
}

/** A `check_run.requested_action` delivery: `login` clicked `identifier` on the check run. */
function clickOn(
  run: { id: number; headSha: string; externalId: string | null },
  login: string,
  identifier: string,
  pull: number,
) {
  const payload = payloads.checkRunAction(REPO, { login }, identifier);
  const checkRun = payload.check_run as Record<string, unknown>;
  checkRun.id = run.id;
  checkRun.head_sha = run.headSha;
  checkRun.external_id = run.externalId;
  checkRun.pull_requests = [{ number: pull, head: { sha: run.headSha } }];
  return h.deliverer.send('check_run', payload);
}

/** The engineer's turn asks an approval (as the git gateway does for a push) and goes on once decided. */
function askingTurn() {
  const asking = approvalAskingTurn(h, 'health-check');
  engineer = asking.turn;
  return asking.asked;
}

/** The approval's check run once it waits for a decision (action_required) and the turn knows its id. */
const pendingApproval = (asked: string[]) =>
  waitFor(async () => {
    const run = approvalCheck();
    return run?.states.some((s) => s.conclusion === 'action_required') === true && asked.length > 0
      ? run
      : null;
  });

describe('P21, P22: a Slack thread’s turns as check runs on the pull request it opened', () => {
  it('P21, P22: before the PR, no check run; after it, a mention in the thread goes queued → in_progress → success on the PR’s head', async () => {
    const { root, number } = await pullRequestFromSlack();
    await h.frontEnd.turnChecks?.idle();
    // The turn that opened it ran before the record: no check run for it.
    expect(checks().runs).toHaveLength(0);

    engineer = async function* () {
      yield { type: 'tool_start', callId: 't1', tool: 'bash', summary: 'npm test' };
      // The call stays open until GitHub has it in the check's summary: updates are coalesced,
      // so a call that ends sooner may only ever show in its card's last state.
      await waitFor(async () =>
        turnChecks().some((r) =>
          r.states.some((x) => x.status === 'in_progress' && x.summary.includes('npm test')),
        ),
      );
      yield { type: 'tool_end', callId: 't1', ok: true, summary: 'exit 0' };
      yield { type: 'final', text: 'engineer here: the endpoint is tested.' };
    };
    await sayInThread(root, '@engineer add a test for it', 'Ev0JOIN002');
    await h.settled(2);
    await h.frontEnd.turnChecks?.idle();
    const [run, ...more] = turnChecks();
    expect(more).toHaveLength(0);
    expect(run?.headSha).toBe(checks().headOf(REPO, number));
    expect(run?.externalId).toMatch(/^summon-run:/);
    const states = run?.states ?? [];
    expect(states[0]?.status).toBe('queued');
    expect(states.some((s) => s.status === 'in_progress' && s.summary.includes('npm test'))).toBe(true);
    expect(states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(states.at(-1)?.summary).toContain('the endpoint is tested');
  });

  it('P21: of the thread’s pull requests, the turn shows on the newest open one (a merged one is passed over)', async () => {
    const { root, runId } = await pullRequestFromSlack();
    const links = h.pullRequestLinks;
    if (links === null) throw new Error('no links');
    const record = async (title: string) => {
      const pull = h.standIn.open(REPO, title, { pull: true, login: 'summon-app[bot]' });
      const headSha = checks().headOf(REPO, pull.number);
      const url = `https://github.com/${REPO}/pull/${pull.number}`;
      await links.recordOpened({ runId, repo: REPO, number: pull.number, headSha, title, url });
      return { number: pull.number, headSha };
    };
    const second = await record('Add latency logging');
    const third = await record('Add a readiness probe');
    expect(new Set([second.headSha, third.headSha]).size).toBe(2);
    const merged = payloads.pullRequest(REPO, 'closed', { ...third, title: 'x', merged: true });
    expect((await h.deliverer.send('pull_request', merged)).status).toBe(202);
    await h.frontEnd.idle();

    await sayInThread(root, '@engineer check the logging', 'Ev0JOIN005');
    await h.settled(2);
    await h.frontEnd.turnChecks?.idle();
    expect(turnChecks().map((run) => run.headSha)).toEqual([second.headSha]);
  });

  it('G4, P21: an approval asked in the Slack thread is refused for a member’s click on GitHub (the turn waits) and decided by an approver’s; the Slack card shows it', async () => {
    const { root, number } = await pullRequestFromSlack();
    const asked = askingTurn();
    await sayInThread(root, '@engineer push it', 'Ev0JOIN003');
    const pending = await pendingApproval(asked);
    expect(pending.headSha).toBe(checks().headOf(REPO, number));
    expect(pending.states[0]?.actions.map((a) => a.identifier)).toEqual(['approve', 'deny']);
    const slack = slackOf();
    const card = await waitFor(
      async () =>
        slack.standIn.inThread(CHANNEL, root).find((m) => m.text.includes('push to acme/api health-check')) ??
        null,
    );

    // mo is a member: refused, told on the pull request, the turn still waits.
    expect((await clickOn(pending, PEOPLE.mo.login, 'approve', number)).status).toBe(202);
    await h.waitForComment(number, (body) => body.includes(`@${PEOPLE.mo.login}`));
    await h.frontEnd.idle();
    expect(await h.engine?.approvalState(asked[0] ?? '')).toBe('pending');
    expect((await h.runs()).map((r) => r.status).sort()).toEqual(['running', 'succeeded']);

    // dana is an approver: decided; the check run and the Slack card both say so.
    expect((await clickOn(pending, PEOPLE.dana.login, 'approve', number)).status).toBe(202);
    await h.settled(2);
    await h.frontEnd.turnChecks?.idle();
    expect(approvalCheck()?.states.at(-1)).toMatchObject({
      conclusion: 'success',
      title: 'Approved by dana on GitHub',
      actions: [],
    });
    const decided = await waitFor(async () => {
      const now = slack.standIn.inThread(CHANNEL, root).find((m) => m.ts === card.ts);
      return now?.text.includes('on GitHub') === true ? now : null;
    });
    expect(decided.text).toContain('by @dana on GitHub');
    await waitFor(async () =>
      slack.standIn.inThread(CHANNEL, root).some((m) => m.text.includes('the push was allow')) ? true : null,
    );
  });

  it('G4, P21: a Slack click decides first: the approval’s check run completes saying so, and the card names no other surface', async () => {
    const { root, number } = await pullRequestFromSlack();
    const asked = askingTurn();
    await sayInThread(root, '@engineer push it', 'Ev0JOIN004');
    const pending = await pendingApproval(asked);
    // The core call a Slack click on the approval's card is decoded into.
    const result = await h.engine?.act(
      { kind: 'approval', verdict: 'deny', approvalId: asked[0] ?? '' },
      { platform: 'slack', workspace: { slug: 'acme' }, senderId: SLACK_DANA },
    );
    expect(result).toEqual({ ok: true });
    await h.settled(2);
    await h.frontEnd.turnChecks?.idle();
    expect(approvalCheck()?.states.at(-1)).toMatchObject({
      conclusion: 'failure',
      title: 'Denied by dana in Slack',
    });
    const card = slackOf()
      .standIn.inThread(CHANNEL, root)
      .find((m) => m.text.includes('push to acme/api health-check'));
    expect(card?.text).toContain('by @dana');
    expect(card?.text).not.toContain('on GitHub');
    // First click wins: an approve on GitHub afterwards decides nothing.
    await clickOn(pending, PEOPLE.dana.login, 'approve', number);
    await h.frontEnd.idle();
    expect(await h.engine?.approvalState(asked[0] ?? '')).toBe('deny');
  });
});
