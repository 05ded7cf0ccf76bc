import type { EntityManager } from 'typeorm';
import type { StoreTx } from '../../core/ports/store';
import { translatingDbErrors } from './db-errors';
import { commitWithNextMessage } from './pending-statements';
import { queryRecords } from './query-records';
import { accessGroupRepository } from './repositories/access-group-repository';
import { agentRepository } from './repositories/agent-repository';
import { approvalRepository } from './repositories/approval-repository';
import { auditRepository } from './repositories/audit-repository';
import { channelBindingRepository } from './repositories/channel-binding-repository';
import { channelCursorRepository } from './repositories/channel-cursor-repository';
import { consoleSessionRepository } from './repositories/console-session-repository';
import { conversationRepository } from './repositories/conversation-repository';
import { gitCredentialRepository } from './repositories/git-credential-repository';
import { gitPushRepository } from './repositories/git-push-repository';
import { guardrailRuleRepository } from './repositories/guardrail-rule-repository';
import { inboxRepository } from './repositories/inbox-repository';
import { mcpCallRepository, mcpGrantRepository } from './repositories/mcp-guard-repository';
import { mcpOAuthRepository } from './repositories/mcp-oauth-repository';
import { mcpServerRepository } from './repositories/mcp-server-repository';
import { memberInviteRepository } from './repositories/member-invite-repository';
import { memberRepository } from './repositories/member-repository';
import { memberTokenRepository } from './repositories/member-token-repository';
import { messageRepository } from './repositories/message-repository';
import { outboxRepository } from './repositories/outbox-repository';
import { platformBindingRepository } from './repositories/platform-binding-repository';
import { processedEventRepository } from './repositories/processed-event-repository';
import { pullRequestRepository } from './repositories/pull-request-repository';
import { questionRepository } from './repositories/question-repository';
import { relayRepository } from './repositories/relay-repository';
import { routineRepository } from './repositories/routine-repository';
import { routingReadRepository } from './repositories/routing-read-repository';
import { runCheckpointRepository } from './repositories/run-checkpoint-repository';
import { runLaneRepository } from './repositories/run-lane-repository';
import { runRepository } from './repositories/run-repository';
import { runSteeringRepository } from './repositories/run-steering-repository';
import { skillRepository } from './repositories/skill-repository';
import { spaceRepository } from './repositories/space-repository';
import { turnReadRepository } from './repositories/turn-read-repository';
import { usageRepository } from './repositories/usage-repository';
import { workspaceRepository } from './repositories/workspace-repository';
import type { SqlStoreTx } from './sql-store';

/**
 * Wraps every method of a repository so that database errors reach the caller as the core's
 * errors (ConflictError, NotFoundError…) at the call that caused them.
 */
const translated = <R extends object>(repository: R): R =>
  new Proxy(repository, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => translatingDbErrors(() => Reflect.apply(value, target, args));
    },
  });

/** Each repository of a transaction, by its name in `StoreTx`. */
const REPOSITORIES = {
  workspaces: workspaceRepository,
  platformBindings: platformBindingRepository,
  members: memberRepository,
  agents: agentRepository,
  skills: skillRepository,
  spaces: spaceRepository,
  channelBindings: channelBindingRepository,
  guardrails: guardrailRuleRepository,
  conversations: conversationRepository,
  messages: messageRepository,
  approvals: approvalRepository,
  questions: questionRepository,
  processedEvents: processedEventRepository,
  gitCredentials: gitCredentialRepository,
  gitPushes: gitPushRepository,
  outbox: outboxRepository,
  memberInvites: memberInviteRepository,
  memberTokens: memberTokenRepository,
  consoleSessions: consoleSessionRepository,
  channelCursors: channelCursorRepository,
  inbox: inboxRepository,
  checkpoints: runCheckpointRepository,
  steering: runSteeringRepository,
  usage: usageRepository,
  relays: relayRepository,
  turnReads: turnReadRepository,
  routingReads: routingReadRepository,
  mcpGrants: mcpGrantRepository,
  mcpCalls: mcpCallRepository,
  mcpServers: mcpServerRepository,
  mcpOAuth: mcpOAuthRepository,
  accessGroups: accessGroupRepository,
  audit: auditRepository,
  routines: routineRepository,
  pullRequests: pullRequestRepository,
} satisfies {
  [K in Exclude<keyof StoreTx, 'runs' | 'commitWithNextMessage'>]: (manager: EntityManager) => StoreTx[K];
};

/** What each transaction holds: its entity manager and the repositories it has made so far. */
class LazyStoreTx {
  private readonly made = new Map<string, unknown>();

  constructor(private readonly manager: EntityManager) {}

  query(sql: string, params: readonly unknown[] = []) {
    return translatingDbErrors(() => queryRecords(this.manager, sql, params));
  }

  commitWithNextMessage(): void {
    commitWithNextMessage(this.manager);
  }

  /** The repository `name`, made the first time this transaction asks for it. */
  repository(name: string, make: (manager: EntityManager) => object): unknown {
    let repository = this.made.get(name);
    if (repository === undefined) {
      repository = translated(make(this.manager));
      this.made.set(name, repository);
    }
    return repository;
  }
}

const lazily = (name: string, make: (manager: EntityManager) => object) =>
  Object.defineProperty(LazyStoreTx.prototype, name, {
    enumerable: true,
    get(this: LazyStoreTx) {
      return this.repository(name, make);
    },
  });
for (const [name, repository] of Object.entries(REPOSITORIES)) lazily(name, repository);
// T3: `Object.assign`, not `{ ...a, ...b }` (docs/turns-and-capacity.md, "No spread first, then
// more, on a reply's path").
lazily('runs', (manager) => Object.assign({}, runRepository(manager), runLaneRepository(manager)));

/**
 * The repositories of one transaction, all on its entity manager. Each is made the first time
 * the transaction uses it (T3: a turn's transactions use a few of them); their getters are
 * defined once, on the prototype, not on every transaction's object.
 */
export const createStoreTx = (manager: EntityManager): SqlStoreTx =>
  new LazyStoreTx(manager) as unknown as SqlStoreTx;
