import { ENGINE_SETUPS } from '../../support/engine-harness';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';
import { git } from '../../support/stand-ins/github-git-stand-in';
import { GATEWAY_TOKEN, type GatewayFixture, openGatewayFixture, REPO } from './gateway-fixture';

describe.each(ENGINE_SETUPS)('G2/G4/G5 push gating at the git gateway on $name', (setup) => {
  let f: GatewayFixture;
  beforeEach(async () => {
    f = await openGatewayFixture(setup);
  });
  afterEach(() => f.close());

  it('G3: clones and fetches through the gateway; upstream sees only the gateway’s token', async () => {
    await f.setRule('allow');
    const first = await f.commit('README.md', 'hello\n');
    expect((await f.startPush(['origin', 'main'])).code).toBe(0);
    const clone = `${f.work}-clone`;
    const cloned = await git(
      ['clone', '-q', f.runEnv.remoteUrl(REPO), clone],
      f.home,
      undefined,
      f.runEnv.env,
    );
    expect(cloned).toMatchObject({ code: 0 });
    expect((await git(['rev-parse', 'HEAD'], f.home, clone)).stdout.trim()).toBe(first);
    const second = await f.commit('b.txt', 'b\n');
    await f.startPush(['origin', 'main']);
    expect((await git(['fetch', '-q', 'origin'], f.home, clone, f.runEnv.env)).code).toBe(0);
    expect((await git(['rev-parse', 'origin/main'], f.home, clone)).stdout.trim()).toBe(second);
    // Protocol v2 for fetch: the Git-Protocol header went through.
    expect(f.upstream.seen.some((s) => s.url.includes('upload-pack') && s.gitProtocol === 'version=2')).toBe(
      true,
    );
    expect(f.upstream.seen.every((s) => s.token === GATEWAY_TOKEN)).toBe(true);
  });

  it('G2 allow: the push is forwarded and lands upstream', async () => {
    await f.setRule('allow');
    const head = await f.commit('README.md', 'hello\n');
    const pushed = await f.startPush(['origin', 'main']);
    expect(pushed.code).toBe(0);
    expect(pushed.stderr).toContain('main -> main');
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    expect((await f.pushes())[0]).toMatchObject({ decision: 'allow', status: 'forwarded', repo: REPO });
  });

  it('push options pass through to upstream with the push', async () => {
    await f.setRule('allow');
    const head = await f.commit('README.md', 'hello\n');
    const pushed = await f.startPush(['-o', 'ci.skip', '-o', 'reviewer=alice', 'origin', 'main']);
    expect(pushed).toMatchObject({ code: 0 });
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
  });

  it('G2 deny: git shows "! [remote rejected]" with the reason and remote: lines; upstream unchanged', async () => {
    await f.setRule('allow');
    const base = await f.commit('README.md', 'hello\n');
    await f.startPush(['origin', 'main']);
    await f.setRule('deny');
    await f.commit('b.txt', 'b\n');
    const pushed = await f.startPush(['origin', 'main']);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toMatch(
      /! \[remote rejected\] main -> main \(denied by guardrail push_to_remote\)/,
    );
    expect(pushed.stderr).toMatch(/remote: Summon: push to acme\/widgets refused\./);
    expect(pushed.stderr).toMatch(/remote: .*deny/i);
    expect(await f.upstreamRef('refs/heads/main')).toBe(base);
    expect((await f.pushes())[0]).toMatchObject({ decision: 'deny', status: 'refused' });
    const counted = parsePrometheusText(await f.metrics.text());
    expect(sampleValue(counted, 'summon_gateway_pushes_total', { decision: 'allow' })).toBe(1);
    expect(sampleValue(counted, 'summon_gateway_pushes_total', { decision: 'deny' })).toBe(1);
  });

  it('G4/G5 ask → card in the thread, remote: waiting lines → approved → lands', async () => {
    await f.setRule('ask');
    const head = await f.commit('README.md', 'hello\n');
    const push = f.startPush(['origin', 'main']);
    const card = await f.approvalCard();
    if (card.kind !== 'posted' || card.message.content.kind !== 'approval') throw new Error('no card');
    const shown = card.message.content.card;
    expect(shown.summary).toBe('push to acme/widgets main');
    expect(shown.details).toEqual(
      expect.arrayContaining(['repository acme/widgets', `main: (new) → ${head.slice(0, 7)} — new branch`]),
    );
    expect(shown.details.some((l) => l.includes('change README.md'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await f.upstreamRef('refs/heads/main')).toBeNull();
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.cardNumber}`);
    const result = await push;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('remote: waiting for approval …');
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    expect((await f.pushes())[0]).toMatchObject({ decision: 'ask', status: 'forwarded' });
  });
});
