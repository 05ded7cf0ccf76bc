import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { mappedResolver } from '../../../src/adapters/egress-proxy/host-resolver';
import { RunEgressProxies } from '../../../src/adapters/egress-proxy/run-egress-proxies';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import { NO_DOMAINS_SENTENCE } from '../../../src/core/network/host-verdict';
import { silentLogger } from '../../../src/core/ports/logger';
import type { RunnerRequest } from '../../../src/core/ports/runner';
import type { ToolOutcome } from '../../../src/core/ports/turn-tools';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { ALLOWED_SITE, OTHER_SITE, startEgressSites } from '../../support/stand-ins/egress-sites';

describe.each(ENGINE_SETUPS)('X2: per-host egress decisions in real turns on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let sites: Awaited<ReturnType<typeof startEgressSites>>;
  let proxies: RunEgressProxies;
  /** What the engineer's turn got, one entry per attempt, filled in as it goes. */
  let got: ToolOutcome[];
  let authorizations: unknown[];

  const url = (host: string) => `https://${host}:${sites.httpsPort}/v1/ping`;
  /** The turn reaches out with the real `bash` tool: a sandboxed curl with the run's proxy variables. */
  const fetches = (hosts: readonly string[], prefix: string) =>
    async function* (request: RunnerRequest) {
      // X2: with the proxy on, the command text of `curl` is no longer what is gated.
      authorizations.push(
        await request.tools.authorize(
          { callId: 'c0', name: 'Bash', input: { command: `curl ${url(OTHER_SITE)}` } },
          request.signal,
        ),
      );
      for (const [i, host] of hosts.entries()) {
        const command = `${prefix}curl -sS --cacert ca.pem ${url(host)}`;
        const outcome = await request.tools.call(
          { callId: `c${i + 1}`, name: 'bash', input: { command } },
          request.signal,
        );
        got.push(outcome);
      }
      yield { type: 'final' as const, text: 'fetched' };
    };

  const open = async (
    hosts: readonly string[],
    rule: GuardrailDecision | null,
    allowed = [ALLOWED_SITE],
    prefix = '',
  ) => {
    proxies = new RunEgressProxies({
      logger: silentLogger,
      forbiddenPorts: [],
      resolve: mappedResolver({ [ALLOWED_SITE]: '127.0.0.1', [OTHER_SITE]: '127.0.0.1' }),
    });
    h = await openEngineHarness(
      setup,
      new ScriptedRunner({ engineer: fetches(hosts, prefix) }),
      {},
      {
        tools: createTurnTools({ PATH: process.env.PATH ?? '/usr/bin:/bin' }),
        egress: proxies,
      },
    );
    // The stand-in sites' certificate, where the sandboxed curl can read it.
    await mkdir(h.agentDir('engineer'), { recursive: true });
    await copyFile(sites.caFile, path.join(h.agentDir('engineer'), 'ca.pem'));
    const workspaceId = h.local.workspace.id;
    await h.read((tx) => tx.workspaces.setAllowedDomains(workspaceId, allowed));
    if (rule !== null) {
      await h.read((tx) =>
        tx.guardrails.upsert(workspaceId, {
          scopeKind: 'workspace',
          scopeId: null,
          action: 'network',
          decision: rule,
        }),
      );
    }
  };
  const cards = () =>
    h
      .thread(1)
      .map(describeEntry)
      .filter((e) => e.startsWith('approval('));

  beforeAll(async () => {
    sites = await startEgressSites();
  });
  afterAll(() => sites.close());
  beforeEach(() => {
    got = [];
    authorizations = [];
  });
  afterEach(async () => {
    await h.close();
    await proxies.closeAll();
    expect(sites.invalid).toEqual([]);
  });

  it('X2: allow (the default) passes a listed domain and refuses another, naming it and how to allow it', async () => {
    await open([ALLOWED_SITE, OTHER_SITE], null);
    await h.type('@engineer fetch both');
    await h.settled(1);
    expect(got[0]).toEqual({ ok: true, output: `Exit code 0.\nhello from ${ALLOWED_SITE}\n` });
    expect(got[1]).toEqual({
      ok: false,
      output: expect.stringContaining('CONNECT tunnel failed, response 403'),
    });
    expect(authorizations).toEqual([{ allowed: true }]);
    expect(cards()).toEqual([]);
  });

  it('X2, G4: ask posts one card naming the host; approved, the host stays reachable for the run', async () => {
    await open([ALLOWED_SITE, ALLOWED_SITE, OTHER_SITE], 'ask');
    await h.type('@engineer fetch it');
    const card = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry : null;
    });
    expect(describeEntry(card)).toBe(
      `approval(pending) engineer wants to run: network access to ${ALLOWED_SITE}`,
    );
    expect(got).toEqual([]);
    await h.type('/thread 1');
    await h.type(`/approve ${card.cardNumber}`);
    await h.settled(1);
    expect(got.slice(0, 2)).toEqual([
      { ok: true, output: `Exit code 0.\nhello from ${ALLOWED_SITE}\n` },
      { ok: true, output: `Exit code 0.\nhello from ${ALLOWED_SITE}\n` },
    ]);
    // The host outside the list is refused as under allow, without a card.
    expect(got[2]).toEqual({ ok: false, output: expect.stringContaining('response 403') });
    expect(cards()).toEqual([`approval(approved) engineer wants to run: network access to ${ALLOWED_SITE}`]);
  });

  it('X2, G4: ask, denied: the host is refused with the sentence and nothing reaches it', async () => {
    const before = sites.seen.length;
    await open([ALLOWED_SITE], 'ask');
    await h.type('@engineer fetch it');
    const card = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry : null;
    });
    await h.type('/thread 1');
    await h.type(`/deny ${card.cardNumber}`);
    await h.settled(1);
    expect(got[0]).toEqual({ ok: false, output: expect.stringContaining('response 403') });
    expect(got[0]?.output).toContain(
      `[network] Refused: a person denied the approval for network access to ${ALLOWED_SITE}`,
    );
    expect(sites.seen.length).toBe(before);
    expect(cards()).toEqual([`approval(denied) engineer wants to run: network access to ${ALLOWED_SITE}`]);
  });

  it('X2: deny refuses every host, listed or not, without a card', async () => {
    const before = sites.seen.length;
    await open([ALLOWED_SITE, OTHER_SITE], 'deny');
    await h.type('@engineer fetch both');
    await h.settled(1);
    expect(got.map((g) => g.ok)).toEqual([false, false]);
    for (const outcome of got) expect(outcome.output).toMatch(/\[network\] Refused: network is denied/);
    // X2: the command text is not what decides (the proxy is): under deny too, `curl` may start.
    expect(authorizations).toEqual([{ allowed: true }]);
    expect(sites.seen.length).toBe(before);
    expect(cards()).toEqual([]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion inside the sandbox
  const SHOW_PROXY = 'echo "proxy=${HTTPS_PROXY:-none}"; ';

  it('X2: a run that reaches no host gets no proxy nor its forward; a command that tries reads why (deny)', async () => {
    const before = sites.seen.length;
    await open([ALLOWED_SITE], 'deny', [ALLOWED_SITE], SHOW_PROXY);
    await h.type('@engineer fetch it');
    await h.settled(1);
    expect(got).toEqual([
      {
        ok: false,
        output: expect.stringMatching(
          /^Exit code 6\.\nproxy=none\ncurl: \(6\) Could not resolve host: .*\n+\[network\] Refused: network is denied/,
        ),
      },
    ]);
    expect(sites.seen.length).toBe(before);
  });

  it('X2: with no allowed domains (the default) there is no proxy either, and the sentence says how to list a host', async () => {
    await open([ALLOWED_SITE], null, [], SHOW_PROXY);
    await h.type('@engineer fetch it');
    await h.settled(1);
    expect(got).toEqual([{ ok: false, output: expect.stringContaining('proxy=none\n') }]);
    expect(got[0]?.output).toContain(`[network] ${NO_DOMAINS_SENTENCE}`);
  });

  it('X2: with a listed domain the run gets its proxy (HTTPS_PROXY set inside)', async () => {
    await open([ALLOWED_SITE], null, [ALLOWED_SITE], SHOW_PROXY);
    await h.type('@engineer fetch it');
    await h.settled(1);
    expect(got).toEqual([
      {
        ok: true,
        output: expect.stringMatching(/^Exit code 0\.\nproxy=http:\/\/127\.0\.0\.1:\d+\nhello from /),
      },
    ]);
  });

  it('X2, G2b: the autonomy dial applies: proposeOnly refuses even a listed host under allow', async () => {
    const before = sites.seen.length;
    await open([ALLOWED_SITE], null);
    await h.read((tx) => tx.spaces.update(h.local.space.id, { autonomy: 'proposeOnly' }));
    await h.type('@engineer fetch it');
    await h.settled(1);
    expect(got).toEqual([{ ok: false, output: expect.stringMatching(/\[network\] Refused: .*proposeOnly/) }]);
    expect(sites.seen.length).toBe(before);
    expect(cards()).toEqual([]);
  });
});
