import type { RelayLevel } from './relay-level';

/**
 * R1, R2: the bodies of the relay protocol, version 1 (`docs/relays.md`), as the core and its
 * ports use them. `relays/relay-protocol.ts` reads them with zod and checks that its schemas
 * give exactly these types.
 */

/** R1: completes a one-time offer (signed with the key it introduces). */
export interface PairRequest {
  offer: string;
  secret: string;
  relay: string;
  url: string | null;
  publicKey: string;
  pairingId: string;
  /** The level the accepting side grants the offering side's agents. */
  grants: RelayLevel;
}

export interface PairResponse {
  pairingId: string;
  relay: string;
  grants: RelayLevel;
}

/** `read`: the agents of the workspace and its recent sessions (conversation titles). */
export interface AgentsResponse {
  agents: { name: string; title: string | null }[];
  sessions: { title: string; space: string }[];
}

/** R2, N12, M20: a note to an agent of the receiving relay. */
export interface PromptRequest {
  agent: string;
  text: string;
  space: string | null;
  sender: {
    agent: string;
    model: string | null;
    session: { title: string | null; url: string | null };
  };
  /** M20: the chain so far, `agent@relay`, oldest first, ending with the sender. */
  chain: string[];
  /** M20: the sender's depth; the receiving turn is one deeper. */
  depth: number;
}

export interface PromptResponse {
  prompt: string;
  agent: string;
  where: string;
}

/** N11: waits (up to `waitMs`) for the prompt's turn to end or to ask a question. */
export interface WaitRequest {
  prompt: string;
  waitMs: number;
}

export interface WaitResponse {
  state: 'working' | 'succeeded' | 'failed';
  reply: string | null;
  error: string | null;
  /** N13: questions the turn waits on. */
  questions: { id: string; text: string; options: string[] }[];
}

/** N13: `full` only: an agent of the paired relay answers a question of a turn it started. */
export interface AnswerRequest {
  question: string;
  answer: string;
  by: string;
}

export interface AnswerResponse {
  prompt: string;
  answer: string;
}

/** R1: the other side revoked the pairing; this side marks its own revoked too. */
export interface RevokeResponse {
  relay: string;
  revoked: true;
}
