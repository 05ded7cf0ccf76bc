import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import type { AnyToolDefinition } from '../../../src/core/tools/tool-definition';
import { ENGINE_SETUPS, waitFor } from '../../support/engine-harness';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';
import { type GatewayFixture, openGatewayFixture } from './gateway-fixture';

const PUSHES = 6;
const BRANCHES = Array.from({ length: PUSHES }, (_, i) => `fix-${i + 1}`);

describe.each(ENGINE_SETUPS)('T1: a push held for approval holds no process slot on $name', (setup) => {
  let f: GatewayFixture;
  let elsewhere: Awaited<ReturnType<typeof makeTempDir>>;
  afterEach(async () => {
    await f?.close();
    await elsewhere?.remove();
  });

  it('with two process slots, six sandboxed pushes each get their card while another agent’s bash runs; approving lands each push exactly once', async () => {
    const semaphore = new FairSemaphore(2); // SUMMON_PROCESS_CONCURRENCY=2
    const launcher = new BubblewrapLauncher(semaphore);
    f = await openGatewayFixture(setup, {}, { processSlots: launcher.slots });
    elsewhere = await makeTempDir();
    await f.setRule('allow');
    const base = await f.commit('README.md', 'hello\n');
    expect((await f.startPush(['origin', 'main'])).code).toBe(0);
    await f.setRule('ask');

    const bash = (bashTools({ env: { PATH: '/usr/bin:/bin' }, launcher }) as [AnyToolDefinition])[0];
    const stop = new AbortController();
    // The run's bash calls, as its agent would make them: its checkout, its git configuration.
    const runScope = toolScope(f.work, 'chat', { runId: f.run.id, env: f.runEnv.env });
    const pushes = BRANCHES.map((branch) =>
      bash.run({ command: `git push origin HEAD:refs/heads/${branch} 2>&1` }, runScope, stop.signal),
    );
    try {
      const cards = await Promise.all(BRANCHES.map((_, index) => f.approvalCard(index)));
      const summaries = cards.map((card) =>
        card.kind === 'posted' && card.message.content.kind === 'approval'
          ? card.message.content.card.summary
          : '',
      );
      expect(summaries.sort()).toEqual(BRANCHES.map((branch) => `push to acme/widgets ${branch}`).sort());
      // Six processes alive, all waiting for a person: none holds a slot (once each wait began).
      await waitFor(async () => semaphore.active === 0, 10_000);

      const other = await bash.run(
        { command: 'echo another agent ran' },
        toolScope(elsewhere.path, 'chat', { runId: 'run-of-another-agent' }),
        stop.signal,
      );
      expect(other).toEqual({ ok: true, output: 'Exit code 0.\nanother agent ran\n' });

      await f.h.type('/thread 1');
      for (const card of cards) await f.h.type(`/approve ${card.cardNumber}`);
      const results = await Promise.all(pushes);
      for (const result of results) expect(result).toMatchObject({ ok: true });
    } finally {
      stop.abort();
    }
    for (const branch of BRANCHES) expect(await f.upstreamRef(`refs/heads/${branch}`)).toBe(base);
    const asked = (await f.pushes()).filter((push) => push.decision === 'ask');
    expect(asked.map((push) => push.status)).toEqual(BRANCHES.map(() => 'forwarded'));
    expect(asked.flatMap((push) => push.updates.map((update) => update.ref)).sort()).toEqual(
      BRANCHES.map((branch) => `refs/heads/${branch}`).sort(),
    );
    expect(semaphore.active).toBe(0);
    expect(semaphore.queued).toBe(0);
  }, 120_000);
});
