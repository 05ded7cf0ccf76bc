import { randomUUID } from 'node:crypto';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import type { RunJob } from '../../../src/core/engine/run-job';
import { silentLogger } from '../../../src/core/ports/logger';
import { placeRemoteNote } from '../../../src/core/relays/place-remote-note';
import { InProcessWaitSignals } from '../../../src/core/waits/in-process-wait-signals';
import { InMemoryPairRateLimiter } from '../../../src/core/wake/in-memory-pair-rate-limiter';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
} from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';

/**
 * N7 for a note from a paired relay (R2): a person's Open or Fold that lands between the
 * note card's post and its stored ref is drawn once the ref is stored, as for a local note.
 * The note is placed with the receiving side's own `placeRemoteNote` (what the relay endpoint
 * calls once the request is verified), on the engine harness's store and terminal platform.
 */
describe.each(ENGINE_SETUPS)('a relayed note folded while it is posted, on $name', (setup) => {
  let h: EngineHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('N7: a relayed note folded before its ref is stored is drawn folded once it is', async () => {
    h = await openEngineHarness(setup, new ScriptedRunner({}));
    const workspaceId = h.local.workspace.id;
    const pairing = await h.store.inWorkspace(workspaceId, (tx) =>
      tx.relays.insertPairing(workspaceId, {
        remoteName: 'relay-a',
        remoteUrl: null,
        remotePublicKey: 'unused: the request is placed after its signature would be checked',
        remotePairingId: null,
        remoteGrants: 'full',
      }),
    );
    // The placed run is only stored and woken on a queue of its own: no turn runs, so nothing
    // but the note's poster and the click draws its card.
    const queue = createJobQueue<RunJob>({ name: `relay-${randomUUID().slice(0, 8)}`, closeTimeoutMs: 100 });
    const post = h.platform.post.bind(h.platform);
    const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };
    // The click arrives between the platform's answer to the post and the stored ref.
    h.platform.post = async (thread, message) => {
      const ref = await post(thread, message);
      if (message.content.kind === 'note')
        await h.engine.act({ kind: 'note', messageId: message.content.card.messageId, verb: 'fold' }, you);
      return ref;
    };
    try {
      await placeRemoteNote(
        {
          store: h.store,
          platforms: new Map([['terminal', h.platform]]),
          queue,
          waits: new InProcessWaitSignals(),
          clock: { now: () => new Date() },
          logger: silentLogger,
          relayName: null,
          pairLimiter: new InMemoryPairRateLimiter(),
        },
        pairing,
        {
          agent: 'qa',
          text: 'please verify the export',
          space: null,
          sender: { agent: 'engineer', model: null, session: { title: 'export', url: null } },
          chain: ['engineer@relay-a'],
          depth: 1,
        },
      );
    } finally {
      await queue.close();
    }
    // N9 would show it open while qa's turn is queued; the person folded it: folded it is drawn.
    expect(
      h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('note(')),
    ).toEqual([expect.stringMatching(/^note\(folded\) engineer/)]);
  });
});
