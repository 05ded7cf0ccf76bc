import type { RunStatus } from '../model/run';

/** N5, N9: the state of the turn a note started, as a note row shows it. */
export const NOTE_TURN_STATES = ['working', 'answered', 'failed', 'stopped'] as const;
export type NoteTurnState = (typeof NOTE_TURN_STATES)[number];

/** N5: the words of a note row. `answered below`, because the reply follows unfolded (N6). */
export const NOTE_TURN_STATE_WORDS: Readonly<Record<NoteTurnState, string>> = {
  working: 'working…',
  answered: 'answered below',
  failed: 'failed',
  stopped: 'stopped',
};

/**
 * The note's turn state from its run. A run record has no status of its own for a turn
 * that someone stopped; the caller says so with `stopped`, which only applies to a run that
 * has ended without success.
 */
export function noteTurnStateOf(status: RunStatus, options: { stopped?: boolean } = {}): NoteTurnState {
  switch (status) {
    case 'queued':
    case 'running':
      return 'working';
    case 'succeeded':
      return 'answered';
    case 'failed':
      return options.stopped ? 'stopped' : 'failed';
  }
}
