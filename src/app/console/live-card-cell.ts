import type { LiveCard } from '../../core/engine/cards/live-card-board';
import { LIVE_CARD_ROWS } from '../../core/ports/live-card-relay';
import { esc } from './console-html';

/** O5: the status card's headline and rows, as the live-runs table's cell shows them. */
export function cardCellContent(card: LiveCard | null): string {
  if (card === null) return '<span class="note">—</span>';
  // A long turn's card keeps its newest rows on the page; the count of the others says they exist.
  const cut = Math.max(0, card.rows.length - LIVE_CARD_ROWS);
  const hidden = cut + (card.earlier ?? 0);
  const rows = card.rows
    .slice(cut)
    .map((row) => `<li>${esc(row)}</li>`)
    .join('');
  const earlier = hidden === 0 ? '' : `<li class="note">${hidden} earlier row${hidden === 1 ? '' : 's'}</li>`;
  return `<span class="headline">${esc(card.headline)}</span>${rows === '' && earlier === '' ? '' : `<ul class="rows">${earlier}${rows}</ul>`}`;
}

/**
 * O5: the card's cell. `data-seq` orders a run's changes (a stale one is not drawn over a newer
 * one); `data-at` is when the change was published. Its own updates are not announced
 * (`aria-live="off"`): at a tool call a second per turn they would drown the page's.
 */
export function cardCell(card: LiveCard | null): string {
  const stamp = card === null ? '' : ` data-seq="${card.seq}" data-at="${card.at}"`;
  return `<td class="card" aria-live="off"${stamp}>${cardCellContent(card)}</td>`;
}

/** O3: the tokens shown: the store's count, or the card's when this process has seen more. */
export const tokensShown = (stored: number, card: LiveCard | null): number =>
  Math.max(stored, card?.tokens ?? 0);

/** One card change as the live stream sends it (`event: card`). */
export function cardEvent(card: LiveCard, storedTokens: number): string {
  const data = {
    run: card.runId,
    seq: card.seq,
    at: card.at,
    html: cardCellContent(card),
    tokens: tokensShown(storedTokens, card).toLocaleString('en-US'),
  };
  return `event: card\ndata: ${JSON.stringify(data)}\n\n`;
}
