import type { Pending } from './slack-stream-chunks';
import { cutAt } from './slack-stream-chunks';

/** Slack's limit on `markdown_text` (and a chunk's text) in one streaming call. */
const CALL_TEXT_LIMIT = 12_000;
/** Room kept at the end of a message to close a fence open there (`\n` and the marker). */
const FENCE_CLOSING_ROOM = 12;
/** Less room than this in the open message: the reply goes on in the next one. */
const MIN_PIECE = 40;

/** Ends a batch whose message is full: it is stopped once the batch is in. */
export const FULL: Pending = { kind: 'text', text: '' };

/**
 * The pending items to send now, taken out of `pending`. M11: a trailing `@name` still being
 * written is held back in `pending` (unless this is the end), so a mention is never cut in two.
 */
export function takePending(pending: Pending[], final: boolean): Pending[] {
  const items = pending.splice(0, pending.length);
  const last = items.at(-1);
  if (final || last?.kind !== 'text') return items;
  const held = /@[\w.-]*$/.exec(last.text);
  if (held === null) return items;
  const keep = last.text.slice(0, held.index);
  pending.push({ kind: 'text', text: last.text.slice(held.index) });
  if (keep === '') items.pop();
  else last.text = keep;
  return items;
}

/**
 * P7: what a message still takes: the part limit less its text (`openText`, null for a new
 * message), the fence line opened again at a new message's start (`reopening`) and the room to
 * close a fence at its end.
 */
export function messageRoom(openText: string | null, reopening: string | null, partLimit: number): number {
  const lead = openText === null ? (reopening?.length ?? -1) + 1 : 0;
  const used = openText?.length ?? 0;
  const room = Math.min(CALL_TEXT_LIMIT - lead, partLimit - used - lead - FENCE_CLOSING_ROOM);
  return openText === null ? Math.max(MIN_PIECE, room) : room;
}

/**
 * Items cut so each call stays within the per-call limit and each message within the part
 * limit. `room` is read again after each full batch is sent (the next message's room), so the
 * caller sends each batch before taking the next.
 */
export function* streamPieces(
  items: Pending[],
  room: () => number,
  hasOpen: () => boolean,
): Generator<Pending[]> {
  let batch: Pending[] = [];
  let left = room();
  if (left < MIN_PIECE && hasOpen()) {
    // The open message is all but full: it is stopped, the text goes on in the next.
    yield [FULL];
    left = room();
  }
  for (const item of items) {
    if (item.kind === 'step') {
      batch.push(item);
      continue;
    }
    let rest = item.text;
    while (rest !== '') {
      const cut = rest.length <= left ? rest.length : cutAt(rest, left);
      batch.push({ kind: 'text', text: rest.slice(0, cut) });
      rest = rest.slice(cut);
      if (rest === '') {
        left -= cut;
        break;
      }
      batch.push(FULL);
      yield batch;
      batch = [];
      // Resumed once the full message was sent and stopped: the room of the next one.
      left = room();
    }
  }
  if (batch.length > 0) yield batch;
}
