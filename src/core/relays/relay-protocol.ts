import { z } from 'zod';
import { RELAY_LEVELS } from '../model/relays/relay-level';
import type {
  AgentsResponse,
  AnswerRequest,
  AnswerResponse,
  PairRequest,
  PairResponse,
  PromptRequest,
  PromptResponse,
  RevokeResponse,
  WaitRequest,
  WaitResponse,
} from '../model/relays/relay-protocol';
import type { SameType } from '../model/same-type';

/**
 * R1, R2: the relay protocol, version 1 (`docs/relays.md`): JSON bodies over HTTPS POST under
 * `/relay/v1/`, each request signed (`relay-signature` in the adapter). Unknown keys are
 * refused, so a peer's typo is an error, not a silent default.
 */
export const RELAY_PROTOCOL_VERSION = '1';
export const RELAY_PATH_PREFIX = '/relay/v1/';

const name = z.string().min(1).max(200);
const level = z.enum(RELAY_LEVELS);

/** R1: completes a one-time offer (signed with the key it introduces). */
export const pairRequest = z.strictObject({
  offer: z.string().min(1).max(100),
  secret: z.string().min(1).max(200),
  relay: name,
  url: z.url().nullable(),
  publicKey: z.string().min(1).max(2000),
  pairingId: z.uuid(),
  /** The level the accepting side grants the offering side's agents. */
  grants: level,
});
export const pairResponse = z.strictObject({ pairingId: z.uuid(), relay: name, grants: level });

/** `read`: the agents of the workspace and its recent sessions (conversation titles). */
export const agentsRequest = z.strictObject({});
export const agentsResponse = z.strictObject({
  agents: z.array(z.strictObject({ name, title: z.string().nullable() })),
  sessions: z.array(z.strictObject({ title: z.string(), space: z.string() })),
});

/** R2, N12, M20: a note to an agent of the receiving relay. */
export const promptRequest = z.strictObject({
  agent: name,
  text: z.string().min(1).max(100_000),
  space: name.nullable(),
  sender: z.strictObject({
    agent: name,
    model: z.string().max(200).nullable(),
    session: z.strictObject({ title: z.string().max(500).nullable(), url: z.url().nullable() }),
  }),
  /** M20: the chain so far, `agent@relay`, oldest first, ending with the sender. */
  chain: z.array(z.string().min(1).max(300)).min(1).max(10),
  /** M20: the sender's depth; the receiving turn is one deeper. */
  depth: z.int().min(1).max(10),
});
export const promptResponse = z.strictObject({ prompt: z.uuid(), agent: name, where: z.string() });

/** N11: waits (up to `waitMs`) for the prompt's turn to end or to ask a question. */
export const waitRequest = z.strictObject({ prompt: z.uuid(), waitMs: z.int().min(0).max(30_000) });
const question = z.strictObject({ id: z.uuid(), text: z.string(), options: z.array(z.string()) });
export const waitResponse = z.strictObject({
  state: z.enum(['working', 'succeeded', 'failed']),
  reply: z.string().nullable(),
  error: z.string().nullable(),
  /** N13: questions the turn waits on. */
  questions: z.array(question),
});

/** N13: `full` only: an agent of the paired relay answers a question of a turn it started. */
export const answerRequest = z.strictObject({
  question: z.uuid(),
  answer: z.string().min(1).max(10_000),
  by: name,
});
export const answerResponse = z.strictObject({ prompt: z.uuid(), answer: z.string() });

/** R1: the other side revoked the pairing; this side marks its own revoked too (any level). */
export const revokeRequest = z.strictObject({});
export const revokeResponse = z.strictObject({ relay: name, revoked: z.literal(true) });

/**
 * The model's declarations of the bodies (`model/relay-protocol.ts`) are exactly what these
 * schemas read: the compiler refuses this list when one of them drifts.
 */
export const BODIES_MATCH_THE_MODEL: readonly true[] = [
  true satisfies SameType<z.output<typeof pairRequest>, PairRequest>,
  true satisfies SameType<z.output<typeof pairResponse>, PairResponse>,
  true satisfies SameType<z.output<typeof agentsResponse>, AgentsResponse>,
  true satisfies SameType<z.output<typeof promptRequest>, PromptRequest>,
  true satisfies SameType<z.output<typeof promptResponse>, PromptResponse>,
  true satisfies SameType<z.output<typeof waitRequest>, WaitRequest>,
  true satisfies SameType<z.output<typeof waitResponse>, WaitResponse>,
  true satisfies SameType<z.output<typeof answerRequest>, AnswerRequest>,
  true satisfies SameType<z.output<typeof answerResponse>, AnswerResponse>,
  true satisfies SameType<z.output<typeof revokeResponse>, RevokeResponse>,
];

/** The operations, by path under the prefix, with the level each needs (R1; null: any, even not accepted). */
export const RELAY_OPERATIONS = {
  agents: { level: 'read', body: agentsRequest },
  prompts: { level: 'prompt', body: promptRequest },
  wait: { level: 'prompt', body: waitRequest },
  answer: { level: 'full', body: answerRequest },
  revoke: { level: null, body: revokeRequest },
} as const;
export type RelayOperation = keyof typeof RELAY_OPERATIONS;

/** Every refusal's code; the body is `{ "error": { "code", "message" } }` (`docs/relays.md`). */
export const RELAY_ERROR_CODES = {
  bad_request: 400,
  unsupported_version: 400,
  bad_signature: 401,
  stale_timestamp: 401,
  replayed: 401,
  unknown_pairing: 401,
  revoked: 403,
  not_accepted: 403,
  level: 403,
  prompts_off: 403,
  person_only: 403,
  limit: 409,
  not_found: 404,
  offer_used: 409,
  rate_limited: 429,
} as const;
export type RelayErrorCode = keyof typeof RELAY_ERROR_CODES;

/** A refusal, as the receiving relay states it; its message is the sentence the sender's agent is told. */
export class RelayRefusal extends Error {
  constructor(
    readonly code: RelayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RelayRefusal';
  }

  get status(): number {
    return RELAY_ERROR_CODES[this.code];
  }
}
