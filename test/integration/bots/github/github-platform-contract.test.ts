import {
  authorOf,
  decodeGitHubThreadId,
  encodeGitHubThreadId,
  type GitHubThreadParts,
  isSummonComment,
  privateRecipientOf,
} from '../../../../src/bots/github';
import { waitFor } from '../../../support/engine-harness';
import {
  APP_LOGIN,
  type GitHubHarness,
  openGitHubHarness,
  PEOPLE,
  REPO,
} from '../../../support/github-harness';
import { describePlatformContract, RecordingChatEngine } from '../../../support/platform-contract';
import { payloads } from '../../../support/stand-ins/github/github-deliveries';

let h: GitHubHarness | null = null;

/** What a comment says between its header line and its hidden marker. */
const middle = (body: string): string => {
  const start = body.indexOf('\n\n');
  const end = body.lastIndexOf('\n\n');
  return start === -1 || end <= start ? body : body.slice(start + 2, end);
};

describePlatformContract<GitHubThreadParts>('GitHub (Octokit against the stand-in)', async () => {
  const engine = new RecordingChatEngine();
  const harness = await openGitHubHarness({ engine });
  h = harness;
  const { standIn } = harness;
  const threads = new Map<string, string>();
  const partsOf = (thread: string) => {
    const parts = decodeGitHubThreadId(thread);
    if (parts === null) throw new Error(`not a GitHub thread: ${thread}`);
    return parts;
  };
  return {
    platform: harness.frontEnd.platform,
    engine,
    boundChannel: REPO,
    personId: PEOPLE.dana.login,
    tellsInThread: true,
    readsNoRunCards: true,
    encodeThreadId: encodeGitHubThreadId,
    decodeThreadId: decodeGitHubThreadId,
    sampleThreadParts: [
      { repo: 'acme/api', number: 1, reviewComment: null },
      { repo: 'acme/api', number: 2, reviewComment: null },
      { repo: 'acme/web.site', number: 1, reviewComment: null },
      { repo: 'acme/api', number: 2, reviewComment: 9_000_123 },
    ],
    foreignThreadIds: [
      'slack:C1:1700000000.000100',
      'terminal:general:1',
      'discord:100:200:300',
      'github:acme/api',
      'github:acme:1',
      'github:Acme/API:1',
      'github:acme/api:0',
      'github:acme/api:1:0',
      'github:acme/api:x',
    ],
    threadIdFor: async (channel, n) => {
      const key = `${channel}:${n}`;
      const known = threads.get(key);
      if (known !== undefined) return known;
      const issue = standIn.open(channel, `topic ${n}`, { login: PEOPLE.mo.login });
      const id = encodeGitHubThreadId({ repo: channel, number: issue.number, reviewComment: null });
      threads.set(key, id);
      return id;
    },
    messagesIn: async (thread) => {
      const parts = partsOf(thread);
      // An issue Summon opened shows its body first (N4: the thread's first message).
      const issue = standIn.issues.find((i) => i.repo === parts.repo && i.number === parts.number);
      const opened =
        parts.reviewComment === null && issue?.login === APP_LOGIN
          ? [{ ref: `i${issue.number}`, author: authorOf(issue.body) ?? issue.login, text: issue.body }]
          : [];
      const prefix = parts.reviewComment === null ? 'c' : 'r';
      return [
        ...opened,
        ...standIn.thread(parts.repo, parts.number, parts.reviewComment).map((c) => ({
          ref: `${prefix}${c.id}`,
          author: authorOf(c.body) ?? c.login,
          text: c.body,
        })),
      ];
    },
    privateMessagesIn: async (thread) => {
      const parts = partsOf(thread);
      return standIn.thread(parts.repo, parts.number, parts.reviewComment).flatMap((c) => {
        const to = privateRecipientOf(c.body);
        return to === null ? [] : [{ to, text: middle(c.body).replace(`@${to} `, '') }];
      });
    },
    deliverPersonMessage: async (thread, text) => {
      const { comment } = await harness.comment(partsOf(thread).number, PEOPLE.dana, text);
      await waitFor(async () => engine.received.some((m) => m.messageRef === `c${comment.id}`));
    },
    // N13: GitHub has no buttons: a comment `/answer <n>` answers the thread's open question.
    answerQuestion: async (thread, _cardRef, answer) => {
      const sent = await harness.comment(partsOf(thread).number, PEOPLE.dana, `/answer ${answer}`);
      expect(sent.status).toBe(202);
      await waitFor(async () => engine.calls.some((c) => c.kind === 'answerQuestion'));
    },
    echoOwnPosts: async () => {
      // GitHub reports the App's comments like anyone's, as the App's bot.
      const own = standIn.comments.filter((c) => isSummonComment(c.body));
      expect(own.length).toBeGreaterThan(0);
      for (const c of own) {
        const payload = payloads.issueComment(
          c.repo,
          c.number,
          c.id,
          { login: APP_LOGIN, bot: true },
          c.body,
        );
        expect((await harness.deliverer.send('issue_comment', payload)).status).toBe(202);
      }
    },
    close: async () => {
      await harness.close();
      // Every call Summon made was one GitHub takes (bodies valid, paths known, token good).
      expect(standIn.requests.filter((r) => r.status >= 400 && r.status !== 404)).toEqual([]);
      h = null;
    },
  };
});

afterAll(async () => {
  await h?.close();
});
