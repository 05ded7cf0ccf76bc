import type { EntityManager } from 'typeorm';
import { translatingDbErrors } from './db-errors';
import { queryRecords } from './query-records';
import { agentRepository } from './repositories/agent-repository';
import { approvalRepository } from './repositories/approval-repository';
import { channelBindingRepository } from './repositories/channel-binding-repository';
import { channelCursorRepository } from './repositories/channel-cursor-repository';
import { conversationRepository } from './repositories/conversation-repository';
import { gitCredentialRepository } from './repositories/git-credential-repository';
import { gitPushRepository } from './repositories/git-push-repository';
import { guardrailRuleRepository } from './repositories/guardrail-rule-repository';
import { inboxRepository } from './repositories/inbox-repository';
import { memberInviteRepository } from './repositories/member-invite-repository';
import { memberRepository } from './repositories/member-repository';
import { messageRepository } from './repositories/message-repository';
import { outboxRepository } from './repositories/outbox-repository';
import { platformBindingRepository } from './repositories/platform-binding-repository';
import { processedEventRepository } from './repositories/processed-event-repository';
import { questionRepository } from './repositories/question-repository';
import { relayRepository } from './repositories/relay-repository';
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

/** The repositories of one transaction, all on its entity manager. */
export const createStoreTx = (manager: EntityManager): SqlStoreTx => ({
  workspaces: translated(workspaceRepository(manager)),
  platformBindings: translated(platformBindingRepository(manager)),
  members: translated(memberRepository(manager)),
  agents: translated(agentRepository(manager)),
  skills: translated(skillRepository(manager)),
  spaces: translated(spaceRepository(manager)),
  channelBindings: translated(channelBindingRepository(manager)),
  guardrails: translated(guardrailRuleRepository(manager)),
  runs: translated({ ...runRepository(manager), ...runLaneRepository(manager) }),
  conversations: translated(conversationRepository(manager)),
  messages: translated(messageRepository(manager)),
  approvals: translated(approvalRepository(manager)),
  questions: translated(questionRepository(manager)),
  processedEvents: translated(processedEventRepository(manager)),
  gitCredentials: translated(gitCredentialRepository(manager)),
  gitPushes: translated(gitPushRepository(manager)),
  outbox: translated(outboxRepository(manager)),
  memberInvites: translated(memberInviteRepository(manager)),
  channelCursors: translated(channelCursorRepository(manager)),
  inbox: translated(inboxRepository(manager)),
  checkpoints: translated(runCheckpointRepository(manager)),
  steering: translated(runSteeringRepository(manager)),
  usage: translated(usageRepository(manager)),
  relays: translated(relayRepository(manager)),
  turnReads: translated(turnReadRepository(manager)),
  routingReads: translated(routingReadRepository(manager)),
  query: (sql, params = []) => translatingDbErrors(() => queryRecords(manager, sql, params)),
});
