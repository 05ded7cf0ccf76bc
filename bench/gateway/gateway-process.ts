import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_GATEWAY_TIMINGS } from '../../src/adapters/git-gateway/gateway-deps';
import { GitGateway } from '../../src/adapters/git-gateway/git-gateway';
import { PackInspector } from '../../src/adapters/git-gateway/pack-inspector';
import { RunCredentials } from '../../src/adapters/git-gateway/run-credentials';
import { runGitEnvironment } from '../../src/adapters/git-gateway/run-git-environment';
import { StaticTokenAuth } from '../../src/adapters/git-gateway/upstream';
import { systemClock } from '../../src/core/ports/clock';
import { silentLogger } from '../../src/core/ports/logger';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { openDatabase } from '../../src/storage/database';

/**
 * The gateway alone in its own process (so its RSS is its own): PGlite under WORK_DIR, one
 * running run in a space with REPO, `push_to_remote: allow`. Prints `{ port, env }`; then on
 * stdin `start` resets the RSS baseline and `stop` prints the peak growth since.
 */
async function main() {
  const work = process.env.WORK_DIR ?? '';
  const repo = process.env.REPO ?? 'acme/bench';
  const database = await openDatabase({ dbDir: path.join(work, 'db') });
  await database.migrate();
  const store = database.store;
  const runId = await store.transaction(async (tx) => {
    const { workspace, space, member } = await ensureLocalChat(tx);
    await tx.spaces.update(space.id, { repos: [repo] });
    await tx.guardrails.upsert(workspace.id, {
      scopeKind: 'workspace',
      scopeId: null,
      action: 'push_to_remote',
      decision: 'allow',
    });
    const agent = (await tx.agents.list(workspace.id))[0];
    if (agent === undefined) throw new Error('no agent');
    const conversation = await tx.conversations.insert(workspace.id, {
      spaceId: space.id,
      platform: 'terminal',
      threadId: randomUUID(),
      title: 'bench',
      ownerAgentId: agent.id,
      createdByAgentId: null,
    });
    const run = await tx.runs.insert({
      workspaceId: workspace.id,
      agentId: agent.id,
      conversationId: conversation.id,
      triggerMessageId: null,
      status: 'running',
      liveness: 'ok',
      wakeChain: [],
      depth: 1,
      startedByMemberId: member.id,
      startedByAgentId: null,
      startedAt: new Date(),
      finishedAt: null,
      lastEventAt: new Date(),
      error: null,
    });
    return run.id;
  });
  const auth = new StaticTokenAuth(process.env.UPSTREAM_TOKEN ?? '');
  const upstreamUrl = process.env.UPSTREAM_URL ?? '';
  const credentials = new RunCredentials(store, systemClock);
  await mkdir(path.join(work, 'spool'), { recursive: true });
  const gateway = new GitGateway({
    store,
    approvals: {
      requestApproval: () => Promise.reject(new Error('the bench allows every push')),
      approvalState: async () => 'deny',
      awaitApproval: async () => 'denied',
    },
    credentials,
    inspector: new PackInspector({ workDir: path.join(work, 'gateway'), upstreamUrl, auth }),
    upstreamUrl,
    auth,
    spoolDir: path.join(work, 'spool'),
    logger: silentLogger,
    clock: systemClock,
    timings: DEFAULT_GATEWAY_TIMINGS,
  });
  const server = createServer((req, res) => {
    if (!gateway.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = await runGitEnvironment(credentials, runId, { gatewayUrl });
  if (env === null) throw new Error('no git environment');

  let baseline = process.memoryUsage().rss;
  let peak = baseline;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10).unref();
  console.log(JSON.stringify({ url: env.remoteUrl(repo), env: env.env }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'start') {
      global.gc?.();
      baseline = process.memoryUsage().rss;
      peak = baseline;
      console.log(JSON.stringify({ started: true }));
    } else if (line === 'stop') {
      console.log(JSON.stringify({ rssGrowth: peak - baseline, baseline }));
    } else if (line === 'quit') break;
  }
  server.close();
  await database.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
