import { authorOf, HOW_TO_LINK, isSummonComment, LINK_USAGE } from '../../../../src/bots/github';
import { issueInvite } from '../../../../src/core/members/member-invites';
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

const NEWCOMER = { login: 'Nia-GH' };
const answers = (number: number) =>
  h.standIn
    .thread(REPO, number)
    .filter((c) => isSummonComment(c.body) && c.body.includes(`@${NEWCOMER.login}`));
const memberOf = async (login: string) =>
  h.store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug('acme');
    return workspace === null ? null : tx.members.findByPlatformUser(workspace.id, 'github', login);
  });

describe('P20: /summon link-account as a GitHub comment', () => {
  it('P20, P8: a valid code links the commenter’s login to the member, answered with one comment, and starts no turn', async () => {
    h.standIn.permissions.set(`${REPO}\n${NEWCOMER.login.toLowerCase()}`, 'write');
    const { code } = await issueInvite(h.store, { workspaceSlug: 'acme', nickname: 'nia', now: new Date() });
    const issue = h.standIn.open(REPO, 'Linking');
    expect((await h.comment(issue.number, NEWCOMER, `/summon link-account ${code}`)).status).toBe(202);
    const answer = await waitFor(async () => answers(issue.number)[0] ?? null, 20_000);
    expect(answer.body).toContain('Linked: your GitHub login is member nia (member)');
    expect((await memberOf(NEWCOMER.login))?.nickname).toBe('nia');
    // Linked: the same login now starts work.
    await h.comment(issue.number, NEWCOMER, '@engineer hello');
    await h.settled(1);
    await h.waitForComment(issue.number, (body) => authorOf(body) === 'engineer');
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer']);
    expect(runner.requests[0]?.prompt).not.toContain(code);
    expect(answers(issue.number).filter((c) => c.body.includes('Linked'))).toHaveLength(1);
  });

  it('P20: a wrong, a used and a missing code are each refused with one comment naming the problem; nothing is linked', async () => {
    const { code } = await issueInvite(h.store, { workspaceSlug: 'acme', nickname: 'nia', now: new Date() });
    const issue = h.standIn.open(REPO, 'Bad codes');
    await h.comment(issue.number, NEWCOMER, '/summon link-account WRONG-CODE1');
    await waitFor(async () => (answers(issue.number).length === 1 ? true : null), 20_000);
    expect(answers(issue.number)[0]?.body).toContain('That code is not valid.');
    expect(await memberOf(NEWCOMER.login)).toBeNull();

    await h.comment(issue.number, PEOPLE.stranger, `/summon link-account ${code}`);
    await h.waitForComment(issue.number, (body) => body.includes(`@${PEOPLE.stranger.login} Linked`));
    await h.comment(issue.number, NEWCOMER, `/summon link-account ${code}`);
    await waitFor(async () => (answers(issue.number).length === 2 ? true : null), 20_000);
    expect(answers(issue.number)[1]?.body).toContain('That code was already used.');
    expect(await memberOf(NEWCOMER.login)).toBeNull();

    await h.comment(issue.number, NEWCOMER, '/summon link-account');
    await waitFor(async () => (answers(issue.number).length === 3 ? true : null), 20_000);
    expect(answers(issue.number)[2]?.body).toContain(LINK_USAGE);
    // Never told how to link on top (the comment is the link attempt), and no turn ran.
    expect(answers(issue.number).some((c) => c.body.includes(HOW_TO_LINK))).toBe(false);
    expect(await h.runs()).toEqual([]);
  });

  it('P20: a code used on a repository no space of its workspace binds is ignored there (one log line), nothing linked', async () => {
    const { code } = await issueInvite(h.store, { workspaceSlug: 'acme', nickname: 'nia', now: new Date() });
    const issue = h.standIn.open('acme/other', 'Elsewhere');
    expect(
      (await h.comment(issue.number, NEWCOMER, `/summon link-account ${code}`, 'acme/other')).status,
    ).toBe(202);
    await waitFor(
      async () => (h.log().includes('a GitHub repository no space binds is ignored') ? true : null),
      20_000,
    );
    expect(await memberOf(NEWCOMER.login)).toBeNull();
    expect(h.standIn.thread('acme/other', issue.number).filter((c) => isSummonComment(c.body))).toEqual([]);
  });
});
