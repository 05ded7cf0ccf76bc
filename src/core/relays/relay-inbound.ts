import { relayChanged } from '../audit/audit-entries';
import { recordAnswer } from '../engine/agent-tools';
import type { RelayLevel } from '../model/relays/relay-level';
import type {
  AgentsResponse,
  AnswerResponse,
  RevokeResponse,
  WaitResponse,
} from '../model/relays/relay-protocol';
import type { RelayPairingRecord } from '../model/relays/relay-records';
import { waitTopics } from '../ports/wait-signals';
import { awaitSignal } from '../waits/await-signal';
import { placeRemoteNote } from './place-remote-note';
import type { RelayInboundDeps } from './relay-inbound-deps';
import { levelAllows } from './relay-level';
import { RELAY_OPERATIONS, type RelayOperation, RelayRefusal } from './relay-protocol';
import { type SessionLink, sessionLink } from './session-link';

/**
 * R1–R3: what the receiving relay does with a request whose signature, time and nonce were
 * verified: the workspace must accept the pairing's relay at a level the operation needs;
 * prompts are refused altogether with `acceptRemoteAgentPrompts: false` (N15). Every refusal
 * is a `RelayRefusal` with the sentence for the sending agent; nothing runs.
 */
export class RelayInbound {
  constructor(private readonly deps: RelayInboundDeps) {}

  async handle(operation: RelayOperation, pairing: RelayPairingRecord, body: unknown): Promise<unknown> {
    const spec = RELAY_OPERATIONS[operation];
    const parsed = spec.body.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      throw new RelayRefusal('bad_request', `The ${operation} request is malformed (${issues}).`);
    }
    // R1: the other side ended the pairing: whatever the level, this side ends it too.
    if (spec.level === null) return this.revoke(pairing);
    const level = await this.levelOf(pairing);
    const own = this.deps.relayName ?? 'this relay';
    if (!levelAllows(level, spec.level)) {
      throw new RelayRefusal(
        'level',
        `Relay ${own} grants ${pairing.remoteName} the level "${level}", and this needs "${spec.level}".`,
      );
    }
    switch (operation) {
      case 'agents':
        return this.agents(pairing);
      case 'prompts': {
        const settings = await this.deps.store.inWorkspace(pairing.workspaceId, (tx) =>
          tx.relays.settings(pairing.workspaceId),
        );
        // N15: off, every prompt from a paired relay's agent is refused; this relay's agents are not affected.
        if (!settings.acceptRemoteAgentPrompts) {
          throw new RelayRefusal(
            'prompts_off',
            `Relay ${own} does not accept prompts from other relays' agents (acceptRemoteAgentPrompts is off there); ask a person there instead.`,
          );
        }
        return placeRemoteNote(this.deps, pairing, RELAY_OPERATIONS.prompts.body.parse(body));
      }
      case 'wait':
        return this.wait(pairing, RELAY_OPERATIONS.wait.body.parse(body));
      case 'answer':
        return this.answer(pairing, RELAY_OPERATIONS.answer.body.parse(body));
    }
  }

  /** R1: revoked on the other side, so here too: every request of that pairing is refused from now on. */
  private async revoke(pairing: RelayPairingRecord): Promise<RevokeResponse> {
    await this.deps.store.inWorkspace(pairing.workspaceId, async (tx) => {
      await tx.relays.revoke(pairing.id, this.deps.clock.now());
      const by = {
        actor: { kind: 'relay' as const, id: null, name: pairing.remoteName },
        where: 'relay' as const,
      };
      await tx.audit.append(pairing.workspaceId, relayChanged('relay_revoked', pairing, by)); // O4
    });
    this.deps.logger.info(
      { relay: pairing.remoteName, pairing: pairing.id },
      'a paired relay revoked the pairing; revoked here too',
    );
    return { relay: this.deps.relayName ?? 'this relay', revoked: true };
  }

  /** N3: what the badge's address answers a person's browser with. */
  sessionLink(id: string): Promise<SessionLink> {
    return sessionLink(this.deps, id);
  }

  /** R1: the level this workspace accepts the relay at (the workspace file's `relays.accept`). */
  private async levelOf(pairing: RelayPairingRecord): Promise<RelayLevel> {
    const settings = await this.deps.store.inWorkspace(pairing.workspaceId, (tx) =>
      tx.relays.settings(pairing.workspaceId),
    );
    const entry = settings.accepted.find((a) => a.relay.toLowerCase() === pairing.remoteName.toLowerCase());
    if (entry === undefined) {
      throw new RelayRefusal(
        'not_accepted',
        `The workspace paired with ${pairing.remoteName} on relay ${this.deps.relayName ?? 'this relay'} does not accept that relay (relays.accept in its workspace file).`,
      );
    }
    return entry.level;
  }

  private agents(pairing: RelayPairingRecord): Promise<AgentsResponse> {
    return this.deps.store.inWorkspace(pairing.workspaceId, async (tx) => {
      const agents = await tx.agents.list(pairing.workspaceId);
      return {
        agents: agents.map((a) => ({ name: a.name, title: a.title ?? null })),
        sessions: await tx.relays.recentSessions(pairing.workspaceId, 20),
      };
    });
  }

  /** N11: the prompt's run, as far as it has come: its reply, its failure, the questions it waits on. */
  private async wait(
    pairing: RelayPairingRecord,
    request: { prompt: string; waitMs: number },
  ): Promise<WaitResponse> {
    const { deps } = this;
    const read = () =>
      deps.store.inWorkspace(pairing.workspaceId, async (tx): Promise<WaitResponse> => {
        const run = await tx.runs.findById(request.prompt);
        const trigger = run?.triggerMessageId ? await tx.messages.findById(run.triggerMessageId) : null;
        // Only a run this pairing's note started is its business.
        if (run === null || trigger?.note?.remote?.pairingId !== pairing.id)
          throw new RelayRefusal(
            'not_found',
            `There is no prompt ${request.prompt} of ${pairing.remoteName} here.`,
          );
        if (run.status === 'failed')
          return { state: 'failed', reply: null, error: run.error ?? 'it failed', questions: [] };
        if (run.status === 'succeeded') {
          const reply = run.replyMessageId === null ? null : await tx.messages.findById(run.replyMessageId);
          return { state: 'succeeded', reply: reply?.text ?? '', error: null, questions: [] };
        }
        const pending = (await tx.questions.listPending(run.conversationId)).filter(
          (q) => q.runId === run.id,
        );
        return {
          state: 'working',
          reply: null,
          error: null,
          questions: pending.map((q) => ({ id: q.id, text: q.text, options: [...q.options] })),
        };
      });
    const first = await read();
    if (first.state !== 'working' || first.questions.length > 0 || request.waitMs === 0) return first;
    // T1: woken by the run's end (or a question it asks), in whichever process; no poll.
    const outcome = await awaitSignal(
      { signals: deps.waits, clock: deps.clock },
      {
        topic: waitTopics.run(request.prompt),
        until: new Date(deps.clock.now().getTime() + request.waitMs),
        signal: new AbortController().signal,
        check: async () => {
          const now = await read();
          return now.state !== 'working' || now.questions.length > 0 ? now : null;
        },
      },
    );
    return outcome.state === 'ready' ? outcome.value : read();
  }

  /** N13: `full` only, and only a question of a turn this pairing's note started. */
  private async answer(
    pairing: RelayPairingRecord,
    request: { question: string; answer: string; by: string },
  ): Promise<AnswerResponse> {
    const result = await recordAnswer(
      this.deps,
      pairing.workspaceId,
      request.question,
      request.answer,
      { kind: 'remote', name: `${request.by} on ${pairing.remoteName}` },
      async (question, tx) => {
        const run = await tx.runs.findById(question.runId);
        const trigger = run?.triggerMessageId ? await tx.messages.findById(run.triggerMessageId) : null;
        return trigger?.note?.remote?.pairingId === pairing.id
          ? null
          : `Question ${question.id} was not asked while working on a note from ${pairing.remoteName}; people there answer it.`;
      },
    );
    if (!result.ok)
      throw new RelayRefusal(result.approval === true ? 'person_only' : 'not_found', result.reason);
    return { prompt: result.question.runId, answer: result.question.answer ?? '' };
  }
}
