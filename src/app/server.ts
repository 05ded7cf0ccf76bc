import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { McpOAuth } from '../adapters/mcp-oauth/mcp-oauth';
import { RelayHttpServer } from '../adapters/relay-http/relay-http-server';
import { loadConfig } from '../config/config';
import { parseConsoleConfig } from '../config/console-config';
import { roleProblem } from '../config/serve-role';
import { systemClock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import { type ChatFrontEnds, startChatFrontEnds } from './chat-front-ends';
import { handleConsole } from './console/console-routes';
import { createConsole } from './console/console-runtime';
import { createGitGateway } from './git-gateway-runtime';
import { createLogger } from './logger';
import { handleMcpOAuthCallback } from './mcp-oauth-callback';
import { createMcpEndpoint, McpChatSlot } from './mcp-runtime';
import { handleOperations } from './operations-routes';
import { subscribeGitHubRoutines } from './routine-github-events';
import { routineWebhookRoute } from './routine-webhooks';
import { openRuntime, type Runtime } from './runtime';
import { verifySkillsAtStart } from './skills-runtime';

export const DEFAULT_WORKSPACE = 'default';

export interface RunningServer {
  runtime: Runtime;
  logger: Logger;
  /** The chat front ends that started (Slack, Discord), or null when none did. */
  chat: ChatFrontEnds | null;
  /** E6: the chat `/mcp` asks through (the terminal chat attaches here); null on a worker. */
  mcpChat: McpChatSlot | null;
  port: number;
  close(): Promise<void>;
}

/**
 * Summon as a service: opens the database (PGlite under the data folder when DATABASE_URL is
 * unset), runs migrations, creates the `default` workspace on first start (seeding runs when
 * a workspace is created, not at every start, A3), and serves HTTP on PORT. The chat front
 * ends attach to this server as they are configured. The role (`SUMMON_ROLE`) says which
 * part runs here: `web` serves HTTP and the front ends, `worker` runs turns (serving only
 * `/healthz`, `/readyz`, `/metrics` and the git gateway its runs push to).
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  cwd: string,
  options: { logToFile?: boolean; chatFrontEnds?: boolean } = {},
): Promise<RunningServer> {
  const config = loadConfig(env, cwd);
  const consoleConfig = parseConsoleConfig(env);
  // Web and worker processes share the turn queue: refused before anything opens without Redis.
  const problem = roleProblem(config.role, config.redisUrl);
  if (problem !== null) throw new Error(problem);
  // With the chat on the terminal, logs go to a file so they do not run through the conversation.
  const logger = options.logToFile
    ? createLogger({ level: config.logLevel, destination: await logFile(config.dataDir) })
    : createLogger({ level: config.logLevel });
  const runtime = await openRuntime(config, logger);
  runtime.metrics.withProcessMetrics();
  try {
    await createDefaultWorkspace(runtime);
    // A6: installed skills whose files no longer match skills-lock.json are refused, not loaded.
    await verifySkillsAtStart(runtime);
    // X4: whether agents' commands can be confined (the engine logs it when it starts).
    const sandbox = await runtime.launcher.status();
    // G3: the git gateway at /git/ when a GitHub credential is configured.
    const gitGateway = await createGitGateway(runtime);
    // Slack and Discord start with their credentials; the terminal chat starts its own engine.
    const chat = options.chatFrontEnds === false ? null : await startChatFrontEnds(runtime);
    const pushedBranches = chat?.pushedBranches ?? null;
    if (pushedBranches !== null)
      gitGateway?.onPushed(({ run, repo, updates }) =>
        pushedBranches.accepted({ runId: run.id, repo, updates }),
      );
    if (chat === null && config.role === 'worker' && options.chatFrontEnds !== false) {
      throw new Error(
        'SUMMON_ROLE=worker needs a chat platform (SLACK_BOT_TOKEN or DISCORD_TOKEN, as on the web process): a worker posts its turns there',
      );
    }
    // R1–R3: the relay protocol, where the chat front ends (and so the engine) run.
    const relayServer = chat === null || config.role === 'worker' ? null : createRelayServer(runtime, chat);
    // E6: Summon as an MCP server for members' personal tokens, where people's requests are served.
    const mcpChat = config.role === 'worker' ? null : new McpChatSlot();
    if (chat !== null)
      mcpChat?.attach({ engine: chat.engine, platforms: chat.platformPorts, signals: chat.signals });
    const mcp = mcpChat === null ? null : createMcpEndpoint(runtime, mcpChat);
    // E5: where authorization servers send people back, on the web role.
    const mcpOAuth = config.role === 'worker' ? null : createMcpOAuth(runtime);
    // O5: the web console at /console, where people's requests are served.
    const webConsole = mcpChat === null ? null : createConsole(runtime, mcpChat, consoleConfig);
    // W5: signed webhooks fire routines, where people's requests are served.
    const hooks =
      chat === null || config.role === 'worker'
        ? null
        : routineWebhookRoute({
            store: runtime.store,
            platforms: chat.platformPorts,
            wake: (job) => chat.wake(job),
            clock: systemClock,
            logger: runtime.logger,
            secretKey: config.secretKey,
          });
    // W1, W2: GitHub's deliveries fire `github` routines where they are received (not on a worker).
    const stopGitHubRoutines =
      chat === null || chat.githubEvents === null || config.role === 'worker'
        ? () => undefined
        : subscribeGitHubRoutines(chat.githubEvents, {
            store: runtime.store,
            platforms: chat.platformPorts,
            wake: (job) => chat.wake(job),
            clock: systemClock,
            logger: runtime.logger,
          });
    const http = createServer((request, response) => {
      if (gitGateway?.handle(request, response)) return;
      if (relayServer?.handle(request, response)) return;
      if (mcpOAuth !== null && handleMcpOAuthCallback(request, response, mcpOAuth, runtime.logger)) return;
      if (chat?.handleHttp(request, response)) return;
      if (mcp?.handle(request, response)) return;
      if (webConsole !== null && handleConsole(request, response, webConsole)) return;
      if (hooks?.(request, response)) return;
      // /healthz, /readyz (database, migrations, queue) and /metrics (Prometheus).
      if (handleOperations(request, response, runtime, sandbox)) return;
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'not found' }));
    });
    await listen(http, config.port);
    const port = (http.address() as AddressInfo).port;
    runtime.listening.port = port;
    logger.info(
      {
        port,
        role: config.role,
        database: runtime.database.kind,
        dataDir: config.dataDir,
        queue: config.redisUrl ? 'redis' : 'in-process',
        gitGateway: gitGateway === null ? 'off (no GITHUB_TOKEN or GitHub App)' : config.github.gitUrl,
        sandbox: sandbox.mode,
      },
      'summon is ready',
    );
    return {
      runtime,
      logger,
      chat,
      mcpChat,
      port,
      close: async () => {
        await new Promise<void>((resolve) => http.close(() => resolve()));
        stopGitHubRoutines();
        await chat?.close();
        await runtime.close();
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** A3: the `default` workspace on first start; seeding runs when a workspace is created. */
async function createDefaultWorkspace(runtime: Runtime): Promise<void> {
  const exists = await runtime.store.transaction((tx) => tx.workspaces.findBySlug(DEFAULT_WORKSPACE));
  if (exists !== null) return;
  const { seededAgents } = await runtime.workspaces.create(DEFAULT_WORKSPACE, 'Default workspace');
  runtime.logger.info(
    { workspace: DEFAULT_WORKSPACE, agents: seededAgents },
    'created the default workspace',
  );
}

/** R1–R3: the relay protocol's HTTP side, over the chat front ends' relay inbound. */
function createRelayServer(runtime: Runtime, chat: ChatFrontEnds): RelayHttpServer {
  return new RelayHttpServer({
    store: runtime.store,
    clock: systemClock,
    logger: runtime.logger.child({ component: 'relays' }),
    relayName: runtime.config.relayName ?? null,
    inbound: chat.relayInbound,
  });
}

/** E5: OAuth for remote MCP servers (SUMMON_SECRET_KEY, SUMMON_PUBLIC_URL). */
function createMcpOAuth(runtime: Runtime): McpOAuth {
  return new McpOAuth({
    store: runtime.store,
    clock: systemClock,
    logger: runtime.logger.child({ component: 'mcp-oauth' }),
    settings: { secretKey: runtime.config.secretKey, publicUrl: runtime.config.publicUrl },
  });
}

async function logFile(dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  return pino.destination({ dest: path.join(dataDir, 'summon.log'), sync: false, mkdir: true });
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
