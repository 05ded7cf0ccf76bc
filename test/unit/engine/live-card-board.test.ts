import { type LiveCard, LiveCardBoard } from '../../../src/core/engine/cards/live-card-board';
import type { Clock } from '../../../src/core/ports/clock';
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
});
