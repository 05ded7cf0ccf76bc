import { ENGINE_SETUPS } from '../../support/engine-harness';
import { type GatewayFixture, openGatewayFixture } from './gateway-fixture';

const cardOf = (entry: Awaited<ReturnType<GatewayFixture['approvalCard']>>) => {
  if (entry.kind !== 'posted' || entry.message.content.kind !== 'approval') throw new Error('not a card');
  return { number: entry.cardNumber, ...entry.message.content.card };
};

describe.each(ENGINE_SETUPS)('G4/G5 approvals of pushes on $name', (setup) => {
  let f: GatewayFixture;
  afterEach(() => f.close());

  /** main upstream at `base`, then the rule becomes `ask`. */
  const seeded = async (ttlMs?: number) => {
    f = await openGatewayFixture(setup, ttlMs === undefined ? {} : { approvalTtlMs: ttlMs });
    await f.setRule('allow');
    const base = await f.commit('README.md', 'hello\n');
    expect((await f.startPush(['origin', 'main'])).code).toBe(0);
    await f.setRule('ask');
    return base;
  };

  it('ask → denied on the card: git shows the refusal, upstream unchanged', async () => {
    const base = await seeded();
    await f.commit('b.txt', 'b\n');
    const push = f.startPush(['origin', 'main']);
    const card = cardOf(await f.approvalCard());
    await f.h.type('/thread 1');
    await f.h.type(`/deny ${card.number}`);
    const result = await push;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/! \[remote rejected\] main -> main \(denied by approver\)/);
    expect(result.stderr).toContain(
      'remote: Summon: the push was denied on its approval card; nothing was sent.',
    );
    expect(await f.upstreamRef('refs/heads/main')).toBe(base);
    expect((await f.pushes())[0]).toMatchObject({
      decision: 'ask',
      status: 'refused',
      reason: 'denied by approver',
    });
  });

  it('ask → nobody answers → expired: refused, the card says expired, upstream unchanged', async () => {
    const base = await seeded(600);
    await f.commit('b.txt', 'b\n');
    const result = await f.startPush(['origin', 'main']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/! \[remote rejected\] main -> main \(approval expired\)/);
    expect(await f.upstreamRef('refs/heads/main')).toBe(base);
    const card = cardOf(await f.approvalCard());
    expect(card.status).toBe('expired');
  });

  it('G4 names a force-push (non-fast-forward, checked against upstream) on the card', async () => {
    const base = await seeded();
    await f.inWork(['commit', '-q', '--amend', '-m', 'rewritten history']);
    const rewritten = (await f.inWork(['rev-parse', 'HEAD'])).stdout.trim();
    const push = f.startPush(['--force', 'origin', 'main']);
    const card = cardOf(await f.approvalCard());
    expect(card.summary).toBe('push to acme/widgets main (FORCE-PUSH)');
    expect(card.details).toContain(
      `main: ${base.slice(0, 7)} → ${rewritten.slice(0, 7)} — FORCE-PUSH (not a fast-forward)`,
    );
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.number}`);
    expect((await push).code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(rewritten);
  });

  it('G4 a fast-forward is not called a force-push; its commits are listed', async () => {
    const base = await seeded();
    await f.commit('b.txt', 'b\n');
    const head = await f.commit('c.txt', 'c\n');
    const push = f.startPush(['origin', 'main']);
    const card = cardOf(await f.approvalCard());
    expect(card.summary).toBe('push to acme/widgets main');
    expect(card.details[1]).toBe(`main: ${base.slice(0, 7)} → ${head.slice(0, 7)}`);
    expect(card.details.slice(2).map((l) => l.replace(/^ {2}\w+ /, ''))).toEqual([
      'change c.txt',
      'change b.txt',
    ]);
    await f.h.type('/thread 1');
    await f.h.type(`/deny ${card.number}`);
    await push;
  });

  it('G4 names a branch deletion (a push with no pack) and a tag on the card', async () => {
    const base = await seeded();
    await f.setRule('allow');
    expect((await f.startPush(['origin', 'main:refs/heads/old'])).code).toBe(0);
    await f.setRule('ask');
    const del = f.startPush(['origin', ':refs/heads/old']);
    const card = cardOf(await f.approvalCard());
    expect(card.summary).toBe('push to acme/widgets old (DELETES)');
    expect(card.details).toContain(`old: ${base.slice(0, 7)} → (deleted) — DELETES BRANCH`);
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.number}`);
    expect((await del).code).toBe(0);
    expect(await f.upstreamRef('refs/heads/old')).toBeNull();

    await f.inWork(['tag', 'v1.0.0']);
    const tag = f.startPush(['origin', 'v1.0.0']);
    const tagCard = cardOf(await f.approvalCard(1));
    expect(tagCard.details).toContain(`tag v1.0.0: (new) → ${base.slice(0, 7)} — new tag`);
    await f.h.type(`/approve ${tagCard.number}`);
    expect((await tag).code).toBe(0);
    expect(await f.upstreamRef('refs/tags/v1.0.0')).toBe(base);
  });

  it('G4 an approval is bound to repo, ref, old and new: it never releases a different push', async () => {
    const base = await seeded();
    const approved = await f.commit('b.txt', 'b\n');
    // The client gives up while waiting; the approver approves afterwards.
    const waiting = f.startPush(['origin', 'main'], {
      ...f.runEnv.env,
      GIT_HTTP_LOW_SPEED_LIMIT: '1000',
      GIT_HTTP_LOW_SPEED_TIME: '1',
    });
    const card = cardOf(await f.approvalCard());
    expect((await waiting).code).not.toBe(0);
    await waitForStatus(f, 'abandoned');
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.number}`);

    // A different new commit on the same ref: not released, a new card is asked for.
    await f.inWork(['commit', '-q', '--amend', '-m', 'something else']);
    const other = f.startPush(['origin', 'main']);
    const second = cardOf(await f.approvalCard(1));
    expect(second.status).toBe('pending');
    await f.h.type(`/deny ${second.number}`);
    expect((await other).code).not.toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(base);

    // Exactly the approved push: released once, without a new card.
    await f.inWork(['reset', '-q', '--hard', approved]);
    expect((await f.startPush(['origin', 'main'])).code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(approved);
    const cards = f.h.thread(1).filter((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
    expect(cards).toHaveLength(2);
    const statuses = (await f.pushes()).map((p) => p.status);
    expect(statuses).toEqual(expect.arrayContaining(['released', 'forwarded', 'refused']));
  });
});

async function waitForStatus(f: GatewayFixture, status: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await f.pushes()).some((p) => p.status === status)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no push became ${status}`);
}
