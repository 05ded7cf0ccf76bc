import { type LiveCard, LiveCardBoard } from '../../../src/core/engine/cards/live-card-board';
import type { Clock } from '../../../src/core/ports/clock';
import type { LiveCardChange, LiveCardRelay } from '../../../src/core/ports/live-card-relay';
import { type Logger, silentLogger } from '../../../src/core/ports/logger';

/** A clock that reads a number the test moves. */
const clockAt = (at: { ms: number }): Clock => ({ now: () => new Date(at.ms) });

describe('O5 the live card board: each running turn’s status card as the console shows it', () => {
  it('O5, P9 a tool call’s end replaces its own row; each change is published with the next sequence number and its time', () => {
    const at = { ms: 1_000 };
    const board = new LiveCardBoard(clockAt(at), silentLogger);
    const seen: LiveCard[] = [];
    board.subscribe((card) => seen.push(card));
    board.open('run-1', 'ws-1');
    board.step('run-1', { id: 'c1', title: 'list_files: .', status: 'in_progress' });
    at.ms = 1_050;
    board.step('run-1', { id: 'c2', title: 'read_file: a.txt', status: 'in_progress' });
    board.step('run-1', { id: 'c1', title: 'list_files: .', status: 'complete', details: '3 files' });
    board.headline('run-1', 'Thinking…');
    board.tokens('run-1', 120);
    board.tokens('run-1', 0);
    expect(seen.map((card) => card.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(seen[0]?.at).toBe(1_000);
    expect(seen[4]).toEqual({
      runId: 'run-1',
      workspaceId: 'ws-1',
      headline: 'Thinking…',
      rows: ['✓ 3 files', '▸ read_file: a.txt'],
      tokens: 120,
      seq: 5,
      at: 1_050,
    });
    expect(board.cardOf('run-1')).toBe(seen[4]);
  });

  it('O5 a run not open here (or closed) is neither kept nor published; a listener that throws costs only itself', () => {
    const warned: unknown[] = [];
    const logger: Logger = { ...silentLogger, warn: (fields) => void warned.push(fields) };
    const board = new LiveCardBoard(clockAt({ ms: 0 }), logger);
    const seen: string[] = [];
    board.subscribe(() => {
      throw new Error('the viewer left');
    });
    const stop = board.subscribe((card) => seen.push(card.rows.join('|')));
    board.row('elsewhere', 'steered');
    board.open('run-1', 'ws-1');
    board.row('run-1', 'steered by @ada');
    stop();
    board.row('run-1', 'compacted');
    board.close('run-1');
    board.row('run-1', 'after the end');
    expect(seen).toEqual(['steered by @ada']);
    expect(board.cardOf('run-1')).toBeNull();
    expect(board.cardOf('elsewhere')).toBeNull();
    expect(warned).toHaveLength(2);
  });

  /** Another process on the other side of the relay: what this board published, who watches. */
  class OtherProcess implements LiveCardRelay {
    readonly published: LiveCardChange[] = [];
    watcher: ((change: LiveCardChange) => void) | null = null;
    publish(change: LiveCardChange): void {
      this.published.push(change);
    }
    watch(onChange: (change: LiveCardChange) => void): () => void {
      this.watcher = onChange;
      return () => {
        this.watcher = null;
      };
    }
  }
  const remoteCard = (seq: number, rows: string[]) => ({
    card: { runId: 'far', workspaceId: 'ws-1', headline: 'Working on it…', rows, tokens: 0, seq, at: seq },
  });

  it('O5 with a relay, this board’s changes and ends are published; others’ cards are watched only while someone listens, a stale one never over a newer', () => {
    const board = new LiveCardBoard(clockAt({ ms: 0 }), silentLogger);
    const other = new OtherProcess();
    board.attach(other);
    board.open('near', 'ws-1');
    board.row('near', 'steered');
    board.close('near');
    expect(other.published.map((c) => ('card' in c ? c.card.rows.join('|') : `ended ${c.ended}`))).toEqual([
      'steered',
      'ended near',
    ]);
    // Nobody listens: nothing is asked of the other processes.
    expect(other.watcher).toBeNull();
    const seen: string[] = [];
    const stop = board.subscribe((card) => seen.push(`${card.runId}#${card.seq}`));
    other.watcher?.(remoteCard(2, ['▸ list_files: .']));
    other.watcher?.(remoteCard(1, []));
    expect(seen).toEqual(['far#2']);
    expect(board.cardOf('far')?.rows).toEqual(['▸ list_files: .']);
    // T2: taken over by another worker, the run counts again from 1, later.
    other.watcher?.({ card: { ...remoteCard(1, ['▸ read_file: a']).card, at: 10 } });
    expect(seen).toEqual(['far#2', 'far#1']);
    other.watcher?.({ ended: 'far' });
    expect(board.cardOf('far')).toBeNull();
    other.watcher?.(remoteCard(3, ['✓ 3 files']));
    stop();
    // The last viewer left: the watch ends and what it kept goes (no longer kept up to date).
    expect(other.watcher).toBeNull();
    expect(board.cardOf('far')).toBeNull();
  });
});
