import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mappedResolver } from '../../../src/adapters/egress-proxy/host-resolver';
import { RunEgressProxies } from '../../../src/adapters/egress-proxy/run-egress-proxies';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { createTurnTools } from '../../../src/app/turn-tools';
import { silentLogger } from '../../../src/core/ports/logger';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import { CLAUDE_COMMAND, openCommandAgentWorkspace } from '../../support/command-agent-workspace';
import { ENGINE_SETUPS, type EngineHarness, openEngineHarness } from '../../support/engine-harness';
import { ALLOWED_SITE, OTHER_SITE, startEgressSites } from '../../support/stand-ins/egress-sites';

const UNLISTED = 'cdn.unlisted.test';

/** The real command runner; the fake Claude Code's scenario goes into the run's working directory. */
class ScenarioRunner implements Runner {
  constructor(
    private readonly inner: CommandRunner,
    private readonly steps: () => unknown[],
    private readonly caFile: string,
  ) {}
  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    await mkdir(request.workingDir, { recursive: true });
    await copyFile(this.caFile, path.join(request.workingDir, 'ca.pem'));
    await writeFile(
      path.join(request.workingDir, 'fake-claude-scenario.json'),
      JSON.stringify({ steps: this.steps() }),
    );
    yield* this.inner.run(request);
  }
}

describe('X2: a sandboxed CLI agent (fake Claude Code) reaches its model API and the allowed domains only', () => {
  let h: EngineHarness;
  let sites: Awaited<ReturnType<typeof startEgressSites>>;
  let ws: Awaited<ReturnType<typeof openCommandAgentWorkspace>>;

  beforeAll(async () => {
    sites = await startEgressSites();
    ws = await openCommandAgentWorkspace();
  });
  afterAll(async () => {
    await h?.close();
    await sites.close();
    await ws.remove();
  });

  it('X2: its own model host passes unasked though unlisted; a listed host passes; any other host is refused', async () => {
    const fetch = (host: string) =>
      `/usr/bin/curl -sS --cacert ca.pem https://${host}:${sites.httpsPort}/ 2>&1; echo "exit=$?"`;
    const runner = new ScenarioRunner(
      new CommandRunner({
        baseEnv: {
          ...process.env,
          PATH: ws.path,
          // The operator gives the CLI agent its model endpoint (A9).
          SUMMON_AGENT_ENV_ANTHROPIC_BASE_URL: `https://${OTHER_SITE}:${sites.httpsPort}`,
        },
        killGraceMs: 1000,
      }),
      () => [
        { bash: fetch(OTHER_SITE) },
        { bash: fetch(ALLOWED_SITE) },
        { bash: fetch(UNLISTED) },
        { text: 'Done.' },
      ],
      sites.caFile,
    );
    h = await openEngineHarness(
      ENGINE_SETUPS[0],
      runner,
      {},
      {
        tools: createTurnTools({ PATH: process.env.PATH ?? '/usr/bin:/bin' }),
        egress: new RunEgressProxies({
          logger: silentLogger,
          forbiddenPorts: [],
          resolve: mappedResolver({
            [ALLOWED_SITE]: '127.0.0.1',
            [OTHER_SITE]: '127.0.0.1',
            [UNLISTED]: '127.0.0.1',
          }),
        }),
      },
    );
    const workspaceId = h.local.workspace.id;
    await h.read((tx) => tx.workspaces.setAllowedDomains(workspaceId, [ALLOWED_SITE]));
    const engineerId = await h.agentId('engineer');
    await h.read((tx) => tx.agents.update(engineerId, { adapterId: 'command', command: CLAUDE_COMMAND }));

    await h.type('@engineer fetch');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    const results = sites.seen.map((s) => s.host);
    expect(results).toEqual([OTHER_SITE, ALLOWED_SITE]);
    expect(sites.invalid).toEqual([]);
  });
});
