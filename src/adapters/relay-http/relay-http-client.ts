import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { RelayCall, RelayClient } from '../../core/ports/relay-client';
import type { Store } from '../../core/ports/store';
import {
  agentsResponse,
  answerResponse,
  promptResponse,
  RELAY_PATH_PREFIX,
  revokeResponse,
  waitResponse,
} from '../../core/relays/relay-protocol';
import { newKeyPair, signedHeaders } from './relay-signature';

const TIMEOUT_MS = 30_000;

/**
 * R1, R2: the relay protocol's client: each request signed with the workspace's key for the
 * pairing (`relay-signature.ts`), sent to the paired relay's public URL; answers are checked
 * against the protocol's schemas, refusals come back as the other side's sentence.
 */
export class RelayHttpClient implements RelayClient {
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      /** Its callers' child logger, which names the component (`relays`). */
      logger: Logger;
      relayName: string;
      publicUrl: string | undefined;
      /** N12: the discovered model of agents without one. */
      defaultModel?: string | null;
    },
  ) {}

  get defaultModel(): string | null {
    return this.deps.defaultModel ?? null;
  }

  get relayName(): string {
    return this.deps.relayName;
  }

  sessionUrl(conversationId: string): string | null {
    const base = this.deps.publicUrl;
    return base === undefined
      ? null
      : `${base.replace(/\/+$/, '')}${RELAY_PATH_PREFIX}sessions/${conversationId}`;
  }

  agents(workspaceId: string, relay: string) {
    return this.call(workspaceId, relay, 'agents', {}, agentsResponse);
  }

  prompt(workspaceId: string, relay: string, request: unknown) {
    return this.call(workspaceId, relay, 'prompts', request, promptResponse);
  }

  wait(workspaceId: string, relay: string, request: unknown, signal?: AbortSignal) {
    return this.call(workspaceId, relay, 'wait', request, waitResponse, signal);
  }

  answer(workspaceId: string, relay: string, request: unknown) {
    return this.call(workspaceId, relay, 'answer', request, answerResponse);
  }

  /** R1: tells the paired relay this side revokes the pairing, so it ends its side too (before ours ends). */
  revoke(workspaceId: string, relay: string) {
    return this.call(workspaceId, relay, 'revoke', {}, revokeResponse, undefined, 10_000);
  }

  private async call<T>(
    workspaceId: string,
    relay: string,
    operation: string,
    body: unknown,
    schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
    signal?: AbortSignal,
    timeoutMs = TIMEOUT_MS + 5_000,
  ): Promise<RelayCall<T>> {
    const found = await this.deps.store.inWorkspace(workspaceId, async (tx) => ({
      pairing: await tx.relays.findActiveByName(workspaceId, relay),
      keys: await tx.relays.keyPair(workspaceId, newKeyPair),
      revoked: (await tx.relays.listPairings(workspaceId)).some(
        (p) => p.revokedAt !== null && p.remoteName.toLowerCase() === relay.toLowerCase(),
      ),
    }));
    const { pairing, keys } = found;
    if (pairing === null)
      return {
        ok: false,
        reason: found.revoked
          ? `the pairing with relay ${relay} was revoked; an operator pairs the relays again with \`summon relays pair\`.`
          : `this workspace is not paired with a relay named "${relay}".`,
      };
    if (pairing.remoteUrl === null || pairing.remotePairingId === null)
      return { ok: false, reason: `relay ${relay} has no public address to send to.` };
    const path = `${RELAY_PATH_PREFIX}${operation}`;
    const text = JSON.stringify(body);
    const headers = signedHeaders(
      keys.privateKey,
      { method: 'POST', path, keyId: pairing.remotePairingId, body: text },
      this.deps.clock.now(),
    );
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(`${pairing.remoteUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: text,
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      const answer: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const error = (answer as { error?: { code?: unknown; message?: unknown } } | null)?.error;
        const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
        this.deps.logger.warn(
          { relay, operation, status: response.status, code: error?.code },
          'a paired relay refused a request',
        );
        return { ok: false, reason: message };
      }
      const parsed = schema.safeParse(answer);
      if (!parsed.success)
        return { ok: false, reason: `relay ${relay} answered in a form this relay does not read.` };
      return { ok: true, value: parsed.data };
    } catch (error) {
      if (signal?.aborted) return { ok: false, reason: 'the wait was stopped.' };
      this.deps.logger.warn({ relay, operation, err: String(error) }, 'a paired relay is unreachable');
      return {
        ok: false,
        reason: `relay ${relay} could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      };
    }
  }
}
