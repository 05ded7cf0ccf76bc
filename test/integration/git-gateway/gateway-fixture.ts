import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { GatewayTimings } from '../../../src/adapters/git-gateway/gateway-deps';
import { GitGateway } from '../../../src/adapters/git-gateway/git-gateway';
import { PackInspector } from '../../../src/adapters/git-gateway/pack-inspector';
import { RunCredentials } from '../../../src/adapters/git-gateway/run-credentials';
import { runGitEnvironment } from '../../../src/adapters/git-gateway/run-git-environment';
import { StaticTokenAuth, type UpstreamAuth } from '../../../src/adapters/git-gateway/upstream';
import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import { type Logger, silentLogger } from '../../../src/core/ports/logger';
import type { ProcessSlots } from '../../../src/core/ports/process-slots';
import { type EngineSetup, held, openEngineHarness, waitFor } from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { GitHubGitStandIn, git } from '../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../support/temp-dir';

export const REPO = 'acme/widgets';
export const GATEWAY_TOKEN = 'ghs_gatewayOnlyWriteToken0123456789';

/**
 * The gateway on a real HTTP server in front of `git http-backend` (requiring GitHub's token
 * scheme), wired to the real engine (terminal platform, scripted runner) whose run is held
 * open while the test pushes as that run would.
 */
export async function openGatewayFixture(
  setup: EngineSetup,
  timings: Partial<GatewayTimings> = {},
  options: {
    logger?: Logger;
    credentialTtlMs?: number;
    auth?: (upstream: GitHubGitStandIn) => Promise<UpstreamAuth>;
    /** T1: the launcher's process slots, given back while a push is held. */
    processSlots?: ProcessSlots;
  } = {},
) {
  const turn = held('done');
  const h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
  const tmp = await makeTempDir();
  const home = path.join(tmp.path, 'home');
  await mkdir(home, { recursive: true });
  const upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
  await upstream.start();
  upstream.tokens.add(GATEWAY_TOKEN);
  const bare = await upstream.createRepo(REPO, home);

  const ws = h.local.workspace.id;
  await h.read((tx) => tx.spaces.update(h.local.space.id, { repos: [REPO] }));
  const clock = { now: () => new Date() };
  const credentials = new RunCredentials(h.store, clock, options.credentialTtlMs);
  const auth = options.auth ? await options.auth(upstream) : new StaticTokenAuth(GATEWAY_TOKEN);
  const spoolDir = path.join(tmp.path, 'spool');
  await mkdir(spoolDir, { recursive: true });
  // G5: pushes by decision, as `/metrics` shows them.
  const metrics = new PrometheusMetrics();
  const gateway = new GitGateway({
    store: h.store,
    approvals: {
      requestApproval: (r) => h.engine.requestApproval(r),
      approvalState: (id) => h.engine.approvalState(id),
      awaitApproval: (id, signal) => h.engine.awaitApproval(id, signal),
      expireApprovals: () => h.engine.expireApprovals(),
    },
    credentials,
    inspector: new PackInspector({
      workDir: path.join(tmp.path, 'gateway'),
      upstreamUrl: upstream.url,
      auth,
    }),
    upstreamUrl: upstream.url,
    auth,
    spoolDir,
    logger: options.logger ?? silentLogger,
    metrics,
    clock,
    timings: { progressMs: 200, ...timings },
    ...(options.processSlots === undefined ? {} : { processSlots: options.processSlots }),
  });
  const server: Server = createServer((req, res) => {
    if (!gateway.handle(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  await h.type('@engineer push the fix');
  await turn.started;
  const run = (await h.runs())[0];
  if (run === undefined) throw new Error('no run');

  const setRule = (decision: GuardrailDecision) =>
    h.read((tx) =>
      tx.guardrails.upsert(ws, { scopeKind: 'workspace', scopeId: null, action: 'push_to_remote', decision }),
    );
  const environment = async () => {
    const env = await runGitEnvironment(credentials, run.id, { gatewayUrl, upstreamUrl: upstream.url });
    if (env === null) throw new Error('no git environment');
    return env;
  };
  const runEnv = await environment();

  /** A working clone of the run: origin is the gateway; the credential is only in the environment. */
  const work = path.join(tmp.path, 'work');
  const inWork = (args: string[], env: Record<string, string> = runEnv.env) => git(args, home, work, env);
  await git(['init', '-q', '-b', 'main', work], home);
  await inWork(['remote', 'add', 'origin', runEnv.remoteUrl(REPO)]);
  const commit = async (file: string, content: string | Buffer) => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(work, file), content);
    await inWork(['add', file]);
    await inWork(['commit', '-q', '-m', `change ${file}`]);
    return (await inWork(['rev-parse', 'HEAD'])).stdout.trim();
  };
  const upstreamRef = async (ref: string) => {
    const r = await git(['--git-dir', bare, 'rev-parse', '--verify', '-q', ref], home);
    return r.code === 0 ? r.stdout.trim() : null;
  };
  const approvalCard = (index = 0) =>
    waitFor(async () => {
      const cards = h
        .thread(1)
        .flatMap((e) => (e.kind === 'posted' && e.message.content.kind === 'approval' ? [e] : []));
      return cards[index] ?? null;
    });

  /** `git push` started in the background (as the agent's shell would), with its output. */
  const startPush = (args: string[], env: Record<string, string> = runEnv.env) =>
    inWork(['push', ...args], env);

  return {
    h,
    metrics,
    run,
    ws,
    home,
    work,
    bare,
    upstream,
    gatewayUrl,
    credentials,
    runEnv,
    environment,
    setRule,
    inWork,
    commit,
    upstreamRef,
    approvalCard,
    startPush,
    release: turn.release,
    pushes: () => h.store.transaction((tx) => tx.gitPushes.listRecent(50)),
    close: async () => {
      turn.release();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await upstream.close();
      await h.close();
      await tmp.remove();
    },
  };
}

export type GatewayFixture = Awaited<ReturnType<typeof openGatewayFixture>>;
