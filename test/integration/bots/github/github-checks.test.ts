import { authorOf } from '../../../../src/bots/github';
import type { RunnerEvent, RunnerRequest } from '../../../../src/core/ports/runner';
import { waitFor } from '../../../support/engine-harness';
import {
  approvalAskingTurn,
  DANA_SLACK,
  type GitHubHarness,
  openGitHubHarness,
  PEOPLE,
  REPO,
} from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import type { Author } from '../../../support/stand-ins/github/github-deliveries';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let h: GitHubHarness;
/** What the engineer's turn does once it is asked: set per test. */
let engineer: (request: RunnerRequest) => AsyncIterable<RunnerEvent>;
const runner = new ScriptedRunner({ engineer: (request) => engineer(request) });

beforeEach(async () => {
  h = await openGitHubHarness({ runner, checks: true });
});
afterEach(async () => {
  await h.close();
});

/** A person comments on pull request `number`, as GitHub stores and delivers it. */
async function commentOnPull(number: number, author: Author, body: string) {
  const written = h.standIn.addComment({
    kind: 'issue',
    repo: REPO,
    number,
    inReplyTo: null,
    body,
    login: author.login,
    bot: false,
  });
  const payload = payloads.issueComment(REPO, number, written.id, author, body, true);
  return h.deliverer.send('issue_comment', payload);
}

const checks = () =>
  h.checks ??
  (() => {
    throw new Error('no checks stand-in');
  })();
const turnCheck = () => checks().named('summon / engineer')[0];
const approvalCheck = () => checks().named('summon / engineer / approval')[0];

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

describe('P21: turns on pull requests as check runs', () => {
  it('P21, P9: a turn from a PR comment goes queued → in_progress (the card’s rows) → success on the head commit', async () => {
    engineer = async function* () {
      yield { type: 'tool_start', callId: 't1', tool: 'bash', summary: 'npm test' };
      // Open until GitHub has it in the check's summary: updates are coalesced, so a call that
      // ends sooner may only ever show in its card's last state.
      await waitFor(async () =>
        (turnCheck()?.states ?? []).some((x) => x.status === 'in_progress' && x.summary.includes('npm test')),
      );
      yield { type: 'tool_end', callId: 't1', ok: true, summary: 'exit 0' };
      await pause(150);
      yield { type: 'final', text: 'engineer here: the tests pass.' };
    };
    const pull = h.standIn.open(REPO, 'Fix login', { pull: true });
    expect((await commentOnPull(pull.number, PEOPLE.dana, '@engineer run the tests')).status).toBe(202);
    await h.settled(1);
    await h.frontEnd.turnChecks?.idle();
    const run = turnCheck();
    expect(run?.headSha).toBe(checks().headOf(REPO, pull.number));
    expect(run?.externalId).toMatch(/^summon-run:/);
    const states = run?.states ?? [];
    expect(states[0]?.status).toBe('queued');
    const progress = states.filter((s) => s.status === 'in_progress');
    expect(progress.length).toBeGreaterThan(0);
    // The status card's rows: the tool call appears in the summary.
    expect(progress.some((s) => s.summary.includes('npm test'))).toBe(true);
    expect(states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(states.at(-1)?.summary).toContain('the tests pass');
    // One check run per turn: every write after the first was an update of it.
    expect(checks().runs).toHaveLength(1);
    const reply = await h.waitForComment(pull.number, (body) => body.includes('the tests pass'));
    expect(authorOf(reply.body)).toBe('engineer');
  });

  it('P21: a turn from a review comment shows on its pull request’s head commit too', async () => {
    engineer = async function* () {
      yield { type: 'final', text: 'engineer here: renamed.' };
    };
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
    await h.frontEnd.turnChecks?.idle();
    expect(turnCheck()?.headSha).toBe(checks().headOf(REPO, pull.number));
    expect(turnCheck()?.states.at(-1)).toMatchObject({
      conclusion: 'success',
      summary: 'engineer here: renamed.',
    });
  });

  it('P21: a failing turn ends its check run in failure with the error; an issue gets no check run', async () => {
    engineer = async function* () {
      yield { type: 'error', message: 'the model refused: quota exceeded' };
    };
    const pull = h.standIn.open(REPO, 'Broken', { pull: true });
    const issue = h.standIn.open(REPO, 'Just an issue');
    await commentOnPull(pull.number, PEOPLE.dana, '@engineer try');
    await h.settled(1);
    await h.comment(issue.number, PEOPLE.dana, '@engineer try here too');
    await h.settled(2);
    await h.frontEnd.turnChecks?.idle();
    const runs = checks().runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]?.states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(runs[0]?.states.at(-1)?.summary).toContain('quota exceeded');
  });

  it('P21, P15: a turn a person stops ends its check run cancelled, saying who stopped it', async () => {
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    engineer = async function* (request) {
      started();
      yield { type: 'thinking' };
      await new Promise<void>((resolve) =>
        request.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    };
    const pull = h.standIn.open(REPO, 'Long job', { pull: true });
    await commentOnPull(pull.number, PEOPLE.dana, '@engineer refactor everything');
    await running;
    const runId = (await h.runs())[0]?.id ?? '';
    const stopped = await h.engine?.act(
      { kind: 'stop-run', runId },
      { platform: 'github', workspace: { slug: 'acme' }, senderId: PEOPLE.dana.login },
    );
    expect(stopped).toEqual({ ok: true });
    await h.settled(1);
    await h.frontEnd.turnChecks?.idle();
    const last = turnCheck()?.states.at(-1);
    expect(last).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    expect(last?.title).toContain('dana');
  });

  it('P21: GitHub failing a check call is retried; the turn is not held up by it', async () => {
    engineer = async function* () {
      yield { type: 'final', text: 'engineer here: done.' };
    };
    checks().failNext(2);
    const pull = h.standIn.open(REPO, 'Flaky GitHub', { pull: true });
    await commentOnPull(pull.number, PEOPLE.dana, '@engineer go');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    await h.frontEnd.turnChecks?.idle();
    expect(turnCheck()?.states.at(-1)).toMatchObject({ conclusion: 'success' });
    expect(h.standIn.requests.filter((r) => r.status === 502)).toHaveLength(2);
  });
});

describe('P21, G4: approvals as check runs', () => {
  /** The engineer's turn asks an approval (as the git gateway does for a push) and goes on once decided. */
  function askingTurn() {
    const asking = approvalAskingTurn(h, 'fix-login');
    engineer = asking.turn;
    return asking.asked;
  }

  it('G4, P21: asked from a PR turn, it is action_required with Approve / Deny; a member’s click is refused (the turn waits), an approver’s decides (the turn goes on)', async () => {
    const asked = askingTurn();
    const pull = h.standIn.open(REPO, 'Fix login', { pull: true });
    await commentOnPull(pull.number, PEOPLE.dana, '@engineer push the fix');
    const pending = await waitFor(async () => {
      const run = approvalCheck();
      return run?.states.some((s) => s.conclusion === 'action_required') === true ? run : null;
    });
    const first = pending.states[0];
    expect(first?.actions.map((a) => a.identifier)).toEqual(['approve', 'deny']);
    expect(first?.detailsUrl).toBe(`https://github.com/${REPO}/pull/${pull.number}`);
    expect(first?.summary).toContain('fix-login: 1a2b3c → 4d5e6f');
    // The card in the thread says where to decide.
    const asking = await h.waitForComment(pull.number, (body) => body.includes('push to acme/api fix-login'));
    expect(asking.body).toContain('Approve or Deny on its check run “summon / engineer / approval”');

    // mo is a member, not an approver: refused, told in the thread, the turn still waits.
    expect((await clickOn(pending, PEOPLE.mo.login, 'approve', pull.number)).status).toBe(202);
    await h.waitForComment(pull.number, (body) => body.includes(`@${PEOPLE.mo.login}`));
    await h.frontEnd.idle();
    expect(await h.engine?.approvalState(asked[0] ?? '')).toBe('pending');
    expect((await h.runs())[0]?.status).toBe('running');
    expect(h.log()).toContain('an approval click on GitHub was refused');

    // dana is an approver: decided, the check run says by whom and where, without buttons.
    expect((await clickOn(pending, PEOPLE.dana.login, 'approve', pull.number)).status).toBe(202);
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    await h.frontEnd.turnChecks?.idle();
    const decided = approvalCheck()?.states.at(-1);
    expect(decided).toMatchObject({ conclusion: 'success', actions: [] });
    expect(decided?.title).toBe('Approved by dana on GitHub');
    // The card in the thread shows the decision made on the check run.
    const card = await h.waitForComment(pull.number, (body) => body.includes('push to acme/api fix-login'));
    expect(card.body).toContain('**Approved** by dana');
    const reply = await h.waitForComment(pull.number, (body) => body.includes('the push was allow'));
    expect(authorOf(reply.body)).toBe('engineer');
  });

  it('G4, P21: decided elsewhere first (a Slack click), the approval’s check run completes saying so, and a later GitHub click changes nothing', async () => {
    const asked = askingTurn();
    const pull = h.standIn.open(REPO, 'Fix login', { pull: true });
    await commentOnPull(pull.number, PEOPLE.dana, '@engineer push the fix');
    const pending = await waitFor(async () => {
      const run = approvalCheck();
      return run?.states.some((s) => s.conclusion === 'action_required') === true && asked.length > 0
        ? run
        : null;
    });
    // The core call a Slack click on the approval's card is decoded into.
    const result = await h.engine?.act(
      { kind: 'approval', verdict: 'deny', approvalId: asked[0] ?? '' },
      { platform: 'slack', workspace: { slug: 'acme' }, senderId: DANA_SLACK },
    );
    expect(result).toEqual({ ok: true });
    await h.settled(1);
    await h.frontEnd.turnChecks?.idle();
    expect(approvalCheck()?.states.at(-1)).toMatchObject({
      conclusion: 'failure',
      title: 'Denied by dana in Slack',
    });
    // First click wins: an approve on GitHub afterwards is refused and decides nothing.
    await clickOn(pending, PEOPLE.dana.login, 'approve', pull.number);
    await h.frontEnd.idle();
    expect(await h.engine?.approvalState(asked[0] ?? '')).toBe('deny');
    expect(approvalCheck()?.states.at(-1)?.conclusion).toBe('failure');
  });
});
