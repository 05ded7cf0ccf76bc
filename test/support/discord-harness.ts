import { Writable } from 'node:stream';
import { FolderAttachmentShelf } from '../../src/adapters/attachments/folder-attachment-shelf';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { frontEndServices } from '../../src/app/front-end-services';
import { createLogger } from '../../src/app/logger';
import { DiscordFrontEnd } from '../../src/bots/discord';
import type { AttachmentLimits } from '../../src/core/attachments/attachment-limits';
import type { TurnToolKit } from '../../src/core/engine/engine-deps';
import { DEFAULT_TIMINGS, type EngineTimings } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import { withDirectInbox } from '../../src/core/ingest/direct-inbox';
import type { InboxRouterOptions } from '../../src/core/ingest/inbox-router';
import { tellInThread } from '../../src/core/ingest/tell-in-thread';
import type { OutboxBackoff } from '../../src/core/outbox/outbox-deliverer';
import type { ChatEngine } from '../../src/core/ports/chat-engine';
import type { Runner } from '../../src/core/ports/runner';
import type { Store, StoreTx } from '../../src/core/ports/store';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { parseWorkspaceFile } from '../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../src/core/workspace/workspace-service';
import type { DatabaseKind } from '../../src/storage/database';
import { waitFor } from './engine-harness';
import {
  BOT_TOKEN,
  DiscordStandIn,
  type StandInUser,
  type StoredMessage,
} from './stand-ins/discord/discord-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase } from './test-database';

/** The people of the stand-in guild: an approver, a member, and someone Summon does not know. */
export interface DiscordPeople {
  dana: StandInUser;
  mo: StandInUser;
  stranger: StandInUser;
}

/**
 * Summon's Discord front end, for real: discord.js against the local Discord stand-in, the
 * real store (a fresh database) with workspace `acme` bound to the stand-in's guild and
 * channel `backend` bound to space `backend`, and either the real turn engine (with the
 * given runner) or a given `ChatEngine` fake.
 */
export async function openDiscordHarness(options: {
  database?: DatabaseKind;
  runner?: Runner;
  engine?: ChatEngine;
  timings?: Partial<EngineTimings>;
  /** `/summon` answers slower than this are deferred first. */
  commandDeferAfterMs?: number;
  /** A9: each run's tools (agent-to-agent tools, N13 questions); none when absent. */
  tools?: TurnToolKit;
  /** P7: the outbox's backoff for 5xx and network errors. */
  outboxBackoff?: Partial<OutboxBackoff>;
  /** T4: the engine's inbox routing (`lanes: 0`: messages are stored, never routed). */
  inbox?: Partial<InboxRouterOptions>;
  /** P14: how often a streamed reply is edited (default 20 ms here). */
  streamEditIntervalMs?: number;
  /** P13: the bounds of attachments. */
  attachmentLimits?: AttachmentLimits;
  /**
   * T2: the store the front end's services (lookups, outbox) are built over, in place of the
   * real one (an `OutageSwitch`'s, to take the database away from them); the engine keeps the real one.
   */
  frontEndStore?: (store: Store) => Store;
  /** T2: the store the engine (the ingest, routing, turns) is built over, in place of the real one. */
  engineStore?: (store: Store) => Store;
  /**
   * P24: the guild's server roles and who holds them, made before the bot connects; returns
   * what the workspace file adds: lines of `members` and keys after them (an `access` list).
   */
  guild?: (standIn: DiscordStandIn, people: DiscordPeople) => { members?: string; file?: string };
}) {
  const standIn = await new DiscordStandIn().start();
  const channel = standIn.addTextChannel('backend');
  const unbound = standIn.addTextChannel('random');
  const people: DiscordPeople = {
    dana: { id: standIn.newId(), username: 'dana' },
    mo: { id: standIn.newId(), username: 'mo' },
    stranger: { id: standIn.newId(), username: 'stranger' },
  };
  const extra = options.guild?.(standIn, people) ?? {};
  const db = await openTestDatabase(options.database ?? 'postgres');
  const dataDir = await makeTempDir();
  const directory = new FileWorkspaceDirectory(dataDir.path);
  const store = db.database.store;
  await new WorkspaceService(store, directory).apply(
    parseWorkspaceFile(`
workspace: acme
discord: { guildId: "${standIn.guildId}" }
members:
  - { nickname: dana, role: approver, discord: "${people.dana.id}" }
  - { nickname: mo, role: member, discord: "${people.mo.id}" }
${extra.members ?? ''}
spaces:
  - name: backend
    participants: [engineer, qa, dana, mo]
    channels: [{ discord: "${channel}" }]
${extra.file ?? ''}`),
  );
  let logText = '';
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString();
        done();
      },
    }),
  });
  let inbox = options.inbox;
  const engineStore = options.engineStore?.(store) ?? store;
  /** A front end and its engine, as one process of Summon has them. */
  const boot = async () => {
    // P24: as the app decides it: the members intent when `access` names a Discord role.
    const memberIntent = await store.transaction((tx) => tx.accessGroups.anyOnPlatform('discord'));
    const frontEnd = new DiscordFrontEnd({
      ...frontEndServices({ store: options.frontEndStore?.(store) ?? store, logger }),
      logger,
      apiUrl: standIn.apiUrl,
      memberIntent,
      streamEditIntervalMs: options.streamEditIntervalMs ?? 20,
      // T2: messages a database outage refused are read back soon after (production waits 2 s, then more).
      gapRetry: { firstMs: 100, maxMs: 400 },
      ...(options.commandDeferAfterMs === undefined
        ? {}
        : { commandDeferAfterMs: options.commandDeferAfterMs }),
    });
    const turnEngine =
      options.runner === undefined
        ? null
        : new TurnEngine({
            store: engineStore,
            platforms: new Map([['discord', frontEnd.platform]]),
            queue: createJobQueue<RunJob>({ name: 'discord-turns', closeTimeoutMs: 2000 }),
            runners: () => options.runner as Runner,
            ...(options.tools === undefined ? {} : { tools: options.tools }),
            rateLimiter: new InMemoryPairRateLimiter(),
            directory,
            clock: { now: () => new Date() },
            logger,
            relayName: null,
            timings: { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, ...options.timings },
            ...(inbox === undefined ? {} : { inbox }),
            // P13: as production wires it, files the model is not shown are kept in the working folder.
            attachmentShelf: new FolderAttachmentShelf(),
            ...(options.attachmentLimits === undefined ? {} : { attachmentLimits: options.attachmentLimits }),
          });
    await turnEngine?.start({ concurrency: 4 });
    const given =
      options.engine === undefined
        ? null
        : // T4: an engine without an inbox (a recording one): each message is decoded and received at once.
          withDirectInbox(options.engine, {
            store,
            tell: tellInThread(new Map([['discord', frontEnd.platform]]), logger),
          });
    const engine = given ?? turnEngine;
    if (engine === null) throw new Error('give a runner or an engine');
    const ready = standIn.gateway.nextReady();
    const connected = await frontEnd.start(engine, standIn.token);
    if (!connected) throw new Error(`the front end did not connect:\n${logText}`);
    await ready;
    await frontEnd.idle();
    return { frontEnd, turnEngine };
  };
  let current = await boot();
  await waitFor(async () => standIn.commands.has(standIn.guildId));

  const runs = () =>
    store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));

  return {
    standIn,
    get frontEnd() {
      return current.frontEnd;
    },
    get engine() {
      return current.turnEngine;
    },
    /**
     * Summon restarts: a new process's front end and engine on the same database (T4: with
     * `inbox`, the new engine's inbox routing; default: as the harness was opened).
     */
    restart: async (next: { inbox?: Partial<InboxRouterOptions> } = {}) => {
      inbox = next.inbox ?? options.inbox;
      await current.frontEnd.close();
      await current.turnEngine?.close();
      current = await boot();
    },
    store,
    db,
    channel,
    unbound,
    people,
    runs,
    log: () => logText,
    /** An agent's folder of workspace `acme` (where its commands run). */
    agentDir: (name: string) => directory.agentDir('acme', name),
    /** Work inside workspace `acme` (its guardrail rules, say), given its id. */
    inAcme: async <T>(work: (tx: StoreTx, workspaceId: string) => Promise<T>) => {
      const workspace = await store.transaction((tx) => tx.workspaces.findBySlug('acme'));
      if (workspace === null) throw new Error('workspace acme is missing');
      return store.inWorkspace(workspace.id, (tx) => work(tx, workspace.id));
    },
    /** Waits until `count` runs exist and all have ended. */
    settled: (count: number, timeoutMs = 15_000) =>
      waitFor(async () => {
        const all = await runs();
        return all.length === count && all.every((r) => r.status === 'succeeded' || r.status === 'failed')
          ? all
          : null;
      }, timeoutMs),
    /** The thread started from a message, once it exists, with its messages. */
    thread: (message: StoredMessage) => standIn.messagesIn(message.id),
    /** Waits until the thread of `message` holds a message matching `check`. */
    waitInThread: (
      message: StoredMessage | string,
      check: (m: StoredMessage) => boolean,
      timeoutMs = 15_000,
    ) =>
      waitFor(async () => {
        const id = typeof message === 'string' ? message : message.id;
        return standIn.messagesIn(id).find(check) ?? null;
      }, timeoutMs),
    close: async () => {
      await current.frontEnd.close();
      await current.turnEngine?.close();
      await standIn.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type DiscordHarness = Awaited<ReturnType<typeof openDiscordHarness>>;

/** What people see of a message: its content, its embeds' text and its buttons' labels. */
export function visibleText(message: StoredMessage): string {
  return [
    message.content,
    ...message.embeds.flatMap((e) => [e.title ?? '', e.description ?? '']),
    ...message.components.flatMap((row) => (row.components ?? []).map((c) => c.label ?? '')),
  ]
    .filter((part) => part !== '')
    .join('\n');
}

export { BOT_TOKEN };
