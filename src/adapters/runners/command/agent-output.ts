import type { RunnerEvent } from '../../../core/ports/runner';
import { isStreamJsonLine, StreamJsonTranslator } from './stream-json-events';

type Terminal = Extract<RunnerEvent, { type: 'final' } | { type: 'error' }>;

/**
 * A CLI agent's stdout, read as it arrives. The first non-empty line decides the format:
 * Claude Code's stream-json (events are translated) or plain text (the whole stdout is the
 * reply, streamed as text). Terminal events are held back until the process has ended.
 */
export class AgentOutput {
  private mode: 'undecided' | 'stream-json' | 'plain' = 'undecided';
  private pendingLine = '';
  private plain = '';
  private readonly translator = new StreamJsonTranslator();
  private terminal: Terminal | undefined;

  /** Events for a chunk of stdout. */
  take(chunk: string): RunnerEvent[] {
    if (this.mode === 'plain') return this.plainText(chunk);
    this.pendingLine += chunk;
    const events: RunnerEvent[] = [];
    let newline = this.pendingLine.indexOf('\n');
    while (newline >= 0 && !this.isPlain()) {
      const line = this.pendingLine.slice(0, newline);
      this.pendingLine = this.pendingLine.slice(newline + 1);
      events.push(...this.line(line));
      newline = this.pendingLine.indexOf('\n');
    }
    if (this.isPlain() && this.pendingLine !== '') {
      const rest = this.pendingLine;
      this.pendingLine = '';
      events.push(...this.plainText(rest));
    }
    return events;
  }

  /** Events for the end of stdout (a last line without a newline). */
  flush(): RunnerEvent[] {
    const rest = this.pendingLine;
    this.pendingLine = '';
    if (rest === '') return [];
    if (this.mode === 'plain') return this.plainText(rest);
    return this.line(rest);
  }

  /** The reply or the error the output itself ended with (stream-json `result`, or plain text). */
  outcome(): Terminal | undefined {
    if (this.mode === 'stream-json') return this.terminal;
    const reply = this.plain.trim();
    return reply === '' ? undefined : { type: 'final', text: reply };
  }

  private isPlain(): boolean {
    return this.mode === 'plain';
  }

  get format(): 'stream-json' | 'plain' | 'none' {
    return this.mode === 'undecided' ? 'none' : this.mode;
  }

  private line(line: string): RunnerEvent[] {
    if (this.mode === 'undecided') {
      if (line.trim() === '') return [];
      this.mode = isStreamJsonLine(line) ? 'stream-json' : 'plain';
      if (this.mode === 'plain') return this.plainText(`${line}\n`);
    }
    if (this.mode === 'plain') return this.plainText(`${line}\n`);
    const events = this.translator.translate(line);
    const streamed: RunnerEvent[] = [];
    for (const event of events) {
      if (event.type === 'final' || event.type === 'error') this.terminal ??= event;
      else streamed.push(event);
    }
    return streamed;
  }

  private plainText(text: string): RunnerEvent[] {
    this.mode = 'plain';
    this.plain += text;
    return text === '' ? [] : [{ type: 'text', delta: text }];
  }
}
