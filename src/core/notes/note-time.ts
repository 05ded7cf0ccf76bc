import { ValidationError } from '../errors';

/** N5: how a note row shows the prompt's time. Injectable, so rows are deterministic. */
export interface NoteTimeOptions {
  /** Replaces the formatting entirely. */
  formatTime?: (at: Date) => string;
  /** An IANA time zone such as `Europe/Prague`; the default is UTC. */
  timeZone?: string;
}

/** `HH:MM` on a 24-hour clock, in UTC unless a time zone is given. */
export function formatNoteTime(at: Date, options: NoteTimeOptions = {}): string {
  if (options.formatTime) return options.formatTime(at);
  if (options.timeZone === undefined || options.timeZone === 'UTC') {
    return `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
  }
  return zonedFormatter(options.timeZone).format(at);
}

function zonedFormatter(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
  } catch (cause) {
    throw new ValidationError(
      `Unknown time zone "${timeZone}": use an IANA name such as Europe/Prague.`,
      [],
      {
        cause,
      },
    );
  }
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
