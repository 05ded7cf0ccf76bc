import { PassThrough, Writable } from 'node:stream';
import { TerminalChat } from '../../../../src/bots/terminal/terminal-chat';
import { TerminalPlatform } from '../../../../src/bots/terminal/terminal-platform';
import { RecordingChatEngine } from '../../../support/platform-contract';

export interface TerminalFixture {
  input: PassThrough;
  platform: TerminalPlatform;
  chat: TerminalChat;
  engine: RecordingChatEngine;
  /** Everything printed so far, line by line. */
  lines(): string[];
  /** Lines printed since the last call. */
  take(): string[];
  /** Types the lines, ends the input, and waits until the chat has handled them all. */
  type(...lines: string[]): Promise<void>;
}

/** A terminal over in-memory streams, a clock that ticks a minute per reading, and counting ids. */
export function makeTerminal(engine = new RecordingChatEngine()): TerminalFixture {
  const input = new PassThrough();
  let printed = '';
  // A Writable that keeps what it is given at once, so a test reads the screen right after a call.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      printed += chunk.toString();
      done();
    },
  });
  let minutes = 0;
  const now = () => new Date(Date.UTC(2025, 0, 6, 14, minutes++));
  let ids = 0;
  const newId = () => `ev-${++ids}`;
  const platform = new TerminalPlatform({ output, now });
  const chat = new TerminalChat({ input, platform, engine, now, newId });
  const all = () => printed.split('\n').slice(0, -1);
  let seen = 0;
  return {
    input,
    platform,
    chat,
    engine,
    lines: all,
    take: () => {
      const lines = all();
      const fresh = lines.slice(seen);
      seen = lines.length;
      return fresh;
    },
    type: async (...lines) => {
      const running = chat.run();
      input.end(lines.map((line) => `${line}\n`).join(''));
      await running;
    },
  };
}
