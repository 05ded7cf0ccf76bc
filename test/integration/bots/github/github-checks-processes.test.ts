import { GitHubChecksRest } from '../../../../src/adapters/github/github-checks-rest';
import { createLogger } from '../../../../src/app/logger';
import { encodeGitHubThreadId } from '../../../../src/bots/github';
import { GitHubTurnChecks } from '../../../../src/bots/github/github-turn-checks';
import type { StatusCard } from '../../../../src/core/ports/chat-platform';
import type { CheckedTurn } from '../../../../src/core/ports/turn-checks';
import { APP_LOGIN, APP_TOKEN, REPO } from '../../../support/github-harness';
import { GitHubChecksStandIn } from '../../../support/stand-ins/github/github-checks-stand-in';
import { GitHubIssuesStandIn } from '../../../support/stand-ins/github/github-issues-stand-in';

let standIn: GitHubIssuesStandIn;
let checks: GitHubChecksStandIn;
/** Two processes' checks on the same GitHub: the web process queues turns, a worker runs them. */
let web: GitHubTurnChecks;
let worker: GitHubTurnChecks;
let turn: CheckedTurn;

beforeEach(async () => {
  standIn = await new GitHubIssuesStandIn({ [APP_TOKEN]: { login: APP_LOGIN, bot: true } }, [REPO]).start();
  checks = new GitHubChecksStandIn(standIn);
  const pull = standIn.open(REPO, 'Add a health check', { pull: true });
  const rest = new GitHubChecksRest({ apiUrl: standIn.url, tokens: { token: async () => APP_TOKEN } });
  const logger = createLogger({ level: 'silent' });
  web = new GitHubTurnChecks({ rest, logger, intervalMs: 0, retryDelaysMs: [] });
  worker = new GitHubTurnChecks({ rest, logger, intervalMs: 0, retryDelaysMs: [] });
  turn = {
    runId: '0b6f3c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f',
    agent: 'engineer',
    platform: 'github',
    thread: encodeGitHubThreadId({ repo: REPO, number: pull.number, reviewComment: null }),
  };
});
afterEach(async () => {
  await standIn.close();
});

const card: StatusCard = { agent: 'engineer', state: 'working', headline: 'Thinking…', rows: ['npm test'] };

describe('P21: a turn queued by one process and run by another has one check run', () => {
  it('P21: the worker’s first update before the web process’s queued: the queued write finds it and writes nothing', async () => {
    worker.progress(turn, card);
    await worker.idle();
    web.queued(turn);
    await web.idle();
    worker.ended(turn, { outcome: 'success', reply: 'engineer here: done.' });
    await worker.idle();

    const [run, ...more] = checks.runs;
    expect(more).toHaveLength(0);
    expect(run?.states.map((s) => s.status)).toEqual(['in_progress', 'completed']);
    expect(run?.states.at(-1)?.conclusion).toBe('success');
  });

  it('P21: queued first, then the worker: the worker updates the queued check run', async () => {
    web.queued(turn);
    await web.idle();
    worker.progress(turn, card);
    await worker.idle();
    worker.ended(turn, { outcome: 'success', reply: 'engineer here: done.' });
    await worker.idle();

    const [run, ...more] = checks.runs;
    expect(more).toHaveLength(0);
    expect(run?.states.map((s) => s.status)).toEqual(['queued', 'in_progress', 'completed']);
  });
});
