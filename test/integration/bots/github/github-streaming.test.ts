import { authorOf } from '../../../../src/bots/github';
import { type GitHubHarness, openGitHubHarness, PEOPLE, REPO } from '../../../support/github-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `deltas` one at a time, `gapMs` apart, then ends with all of them. */
function slowly(deltas: string[], gapMs: number): Script {
  return async function* () {
    for (const delta of deltas) {
      yield { type: 'text', delta };
      await pause(gapMs);
    }
    yield { type: 'final', text: deltas.join('') };
  };
}

describe('P14: a GitHub reply comment is edited as it is written', () => {
  let h: GitHubHarness;
  afterEach(async () => {
    await h.close();
    expect(h.standIn.requests.filter((r) => r.status >= 400)).toEqual([]);
  });

  it('P14: the reply comment is posted with its first words, edited as it grows, and ends showing the exact reply', async () => {
    const deltas = Array.from({ length: 12 }, (_, i) => `part ${i} of the answer. `);
    h = await openGitHubHarness({ runner: new ScriptedRunner({ engineer: slowly(deltas, 30) }) });
    const issue = h.standIn.open(REPO, 'Explain');
    await h.comment(issue.number, PEOPLE.mo, '@engineer explain');
    await h.settled(1);
    const replies = h.standIn
      .thread(REPO, issue.number)
      .filter((c) => authorOf(c.body) === 'engineer' && c.body.includes('part 0'));
    expect(replies).toHaveLength(1);
    const [reply] = replies;
    expect(reply?.body).toContain(deltas.join(''));
    expect(reply?.body.split('\n')[0]).toContain('**engineer**');
    // Posted before the end, then edited in place, more than once.
    expect(reply?.edits).toBeGreaterThanOrEqual(2);
  });
});
