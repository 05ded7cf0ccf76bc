import type { Logger } from '../../../src/core/ports/logger';
import { ENGINE_SETUPS } from '../../support/engine-harness';
import { git } from '../../support/stand-ins/github-git-stand-in';
import { type GatewayFixture, openGatewayFixture, REPO } from './gateway-fixture';

const cardOf = (entry: Awaited<ReturnType<GatewayFixture['approvalCard']>>) => {
  if (entry.kind !== 'posted' || entry.message.content.kind !== 'approval') throw new Error('not a card');
  return { number: entry.cardNumber, ...entry.message.content.card };
};

describe.each(ENGINE_SETUPS)(
  'G5 a branch named with non-ASCII letters, through the real git, on $name',
  (setup) => {
    let f: GatewayFixture;
    afterEach(() => f.close());

    it('refused: git shows the exact ref and the reason (its report matched the ref it sent)', async () => {
      f = await openGatewayFixture(setup);
      await f.setRule('deny');
      await f.commit('README.md', 'x\n');
      const result = await f.startPush(['origin', 'HEAD:refs/heads/dény']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        '! [remote rejected] HEAD -> dény (denied by guardrail push_to_remote)',
      );
      expect(result.stderr).not.toMatch(/failed to report status|Ã/);
      expect(result.stderr).toContain('remote: Summon: push to acme/widgets refused.');
      expect(await f.upstreamRef('refs/heads/dény')).toBeNull();
    });

    it('allowed: forwarded, and it lands upstream under exactly that name', async () => {
      f = await openGatewayFixture(setup);
      await f.setRule('allow');
      const head = await f.commit('README.md', 'x\n');
      const result = await f.startPush(['origin', 'HEAD:refs/heads/dény']);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/\* \[new branch\]\s+HEAD -> dény/);
      expect(await f.upstreamRef('refs/heads/dény')).toBe(head);
    });

    it('asked: the card and the remote: lines name dény; approved, it lands upstream under that name', async () => {
      f = await openGatewayFixture(setup);
      await f.setRule('ask');
      const head = await f.commit('README.md', 'x\n');
      const push = f.startPush(['origin', 'HEAD:refs/heads/dény']);
      const card = cardOf(await f.approvalCard());
      expect(card.summary).toBe('push to acme/widgets dény');
      expect(card.details).toContain(`dény: (new) → ${head.slice(0, 7)} — new branch`);
      await f.h.type('/thread 1');
      await f.h.type(`/approve ${card.number}`);
      const result = await push;
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('remote: Summon: push to acme/widgets dény');
      expect(result.stderr).toMatch(/\* \[new branch\]\s+HEAD -> dény/);
      expect(await f.upstreamRef('refs/heads/dény')).toBe(head);
      expect((await f.pushes())[0]).toMatchObject({
        status: 'forwarded',
        updates: [{ ref: 'refs/heads/dény', newId: head }],
      });
    });
  },
);

describe('G4 the card of a push of many refs, and the 401 challenge in the log', () => {
  const setup = ENGINE_SETUPS[0];
  let f: GatewayFixture;
  afterEach(() => f.close());

  it('a 150-ref push: the card names the first refs and says how many more', async () => {
    f = await openGatewayFixture(setup);
    await f.setRule('ask');
    const head = await f.commit('README.md', 'x\n');
    const names = Array.from({ length: 150 }, (_, i) => `topic-${String(i + 1).padStart(3, '0')}`);
    // The 150 branches in one git process (`update-ref --stdin`), not one `git branch` each.
    const created = await git(
      ['update-ref', '--stdin'],
      f.home,
      f.work,
      f.runEnv.env,
      names.map((n) => `create refs/heads/${n} ${head}\n`).join(''),
    );
    expect(created).toMatchObject({ code: 0 });
    const push = f.startPush(['origin', ...names]);
    const card = cardOf(await f.approvalCard());
    expect(card.summary).toMatch(/^push to acme\/widgets topic-001, .*, topic-010 and 140 more refs$/);
    expect(card.details).toContain('… and 130 more refs: new branch ×130');
    expect(card.details.filter((l) => l.startsWith('topic-'))).toHaveLength(20);
    await f.h.type('/thread 1');
    await f.h.type(`/deny ${card.number}`);
    const result = await push;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('! [remote rejected] topic-150 -> topic-150 (denied by approver)');
    expect(await f.upstreamRef('refs/heads/topic-001')).toBeNull();
  });

  it('a client that sends its credential only after the 401 challenge is logged at debug; a refused one warns', async () => {
    const logged = new RecordingLogger();
    f = await openGatewayFixture(setup, {}, { logger: logged });
    const header = Object.entries(f.runEnv.env).find(([, v]) => v.startsWith('Authorization: Basic '));
    const basic = header?.[1].slice('Authorization: Basic '.length) ?? '';
    const userinfo = Buffer.from(basic, 'base64').toString('utf8'); // summon-run:<token>
    const withUserinfo = (credentials: string) =>
      `${f.gatewayUrl.replace('http://', `http://${credentials}@`)}/git/${REPO}.git`;

    // No extraHeader: git asks without credentials, gets the 401 challenge, retries with them.
    const listed = await git(['ls-remote', withUserinfo(userinfo)], f.home);
    expect(listed.code).toBe(0);
    expect(logged.at('debug')).toContain('git gateway challenged a client for its credential');
    expect(logged.at('warn')).toEqual([]);

    const refused = await git(['ls-remote', withUserinfo('summon-run:sgw_not-a-real-one')], f.home);
    expect(refused.code).not.toBe(0);
    expect(logged.at('warn')).toEqual(['git gateway refused a credential']);
  });
});

/** A hand-written Logger that keeps each level's messages. */
class RecordingLogger implements Logger {
  readonly entries: { level: string; message: string }[] = [];
  debug = (_: object, message: string) => this.push('debug', message);
  info = (_: object, message: string) => this.push('info', message);
  warn = (_: object, message: string) => this.push('warn', message);
  error = (_: object, message: string) => this.push('error', message);
  child = (): Logger => this;
  at = (level: string) => this.entries.filter((e) => e.level === level).map((e) => e.message);
  private push(level: string, message: string) {
    this.entries.push({ level, message });
  }
}
