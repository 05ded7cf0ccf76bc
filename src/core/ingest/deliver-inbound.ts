import type { InboxEntry } from '../model/inbox';
import type { ChatEngine, IngestOutcome } from '../ports/chat-engine';
import type { InboxDecoder } from '../ports/inbox-decoder';
import type { Store } from '../ports/store';

/**
 * T4: what a front end calls for each inbound event it accepts. An engine with an inbox stores
 * the event and resolves (the front end acknowledges then; routing follows). One without
 * (a recording stand-in in tests) gets the decoded message at once through `receive`.
 */
export async function deliverInbound(
  engine: ChatEngine,
  entry: InboxEntry,
  direct: { decoder: InboxDecoder; store: Store },
): Promise<IngestOutcome> {
  if (engine.ingest !== undefined) return engine.ingest(entry);
  const decision = await direct.decoder.decode({ ...entry, id: entry.eventId, attempts: 0 }, direct.store);
  if (decision.kind === 'drop') {
    await decision.afterCommit?.();
    return { stored: false };
  }
  const outcome = await engine.receive(decision.message);
  await decision.afterCommit?.(outcome);
  return { stored: outcome.kind !== 'duplicate' };
}
