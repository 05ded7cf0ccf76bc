import type {
  AgentsResponse,
  AnswerRequest,
  AnswerResponse,
  PromptRequest,
  PromptResponse,
  WaitRequest,
  WaitResponse,
} from '../model/relays/relay-protocol';

/** A call to a paired relay: its answer, or the sentence the calling agent is told. */
export type RelayCall<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * R1, R2: signed requests to the paired relays of a workspace (`src/adapters/relay-http`).
 * Every refusal — not paired, revoked, the other side's own refusal — is a sentence, never a throw.
 */
export interface RelayClient {
  /** This relay's name (`SUMMON_RELAY_NAME`): how its agents appear in chains (M20). */
  readonly relayName: string;
  /** N12: the model agents without their own run on here (discovered at start), for the header there. */
  readonly defaultModel: string | null;
  /** N3: the address of a conversation of this relay, given to the other side for its badge; null without a public URL. */
  sessionUrl(conversationId: string): string | null;
  agents(workspaceId: string, relay: string): Promise<RelayCall<AgentsResponse>>;
  prompt(workspaceId: string, relay: string, request: PromptRequest): Promise<RelayCall<PromptResponse>>;
  wait(
    workspaceId: string,
    relay: string,
    request: WaitRequest,
    signal?: AbortSignal,
  ): Promise<RelayCall<WaitResponse>>;
  answer(workspaceId: string, relay: string, request: AnswerRequest): Promise<RelayCall<AnswerResponse>>;
}
