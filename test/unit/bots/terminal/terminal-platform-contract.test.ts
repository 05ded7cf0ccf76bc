import { renderEntry } from '../../../../src/bots/terminal/terminal-screen';
import {
  decodeTerminalThreadId,
  encodeTerminalThreadId,
  type TerminalThreadParts,
} from '../../../../src/bots/terminal/thread-id';
import { describePlatformContract, type PlatformHarness } from '../../../support/platform-contract';
import { makeTerminal } from './terminal-fixture';

describePlatformContract('terminal', (): PlatformHarness<TerminalThreadParts> => {
  const terminal = makeTerminal();
  const { platform, chat, engine } = terminal;
  return {
    platform,
    engine,
    boundChannel: 'general',
    personId: 'you',
    encodeThreadId: encodeTerminalThreadId,
    decodeThreadId: decodeTerminalThreadId,
    sampleThreadParts: [
      { channel: 'general', number: 1 },
      { channel: 'general', number: 12 },
      { channel: 'release-notes', number: 3 },
    ],
    foreignThreadIds: [
      'slack:C024BE91L:1712345678.000100',
      'discord:81384788765712384:81384788765712385:81384788765712386',
      'terminal:general',
      'terminal:general:0',
      'terminal:general:01',
      'terminal:general:x',
      'terminal::1',
      'terminal:general:1:2',
    ],
    threadIdFor: async (channel, n) => {
      const id = encodeTerminalThreadId({ channel, number: n });
      platform.threads.ensure(platform.threads.numberOf(id), new Date(0));
      return id;
    },
    messagesIn: async (thread) => {
      const number = platform.threads.numberOf(thread);
      return (platform.threads.get(number)?.entries ?? []).map((entry) => ({
        ref: entry.ref,
        author:
          entry.kind === 'person'
            ? entry.sender
            : entry.message.as.kind === 'agent'
              ? entry.message.as.name
              : 'system',
        text: renderEntry(number, entry).join('\n'),
      }));
    },
    // What the screen printed as `  (only you) [n] text`.
    privateMessagesIn: async (thread) => {
      const number = platform.threads.numberOf(thread);
      return terminal.lines().flatMap((line) => {
        const match = /^ {2}\(only (\S+)\) \[(\d+)\] (.*)$/.exec(line);
        if (match?.[2] !== String(number)) return [];
        return [{ to: match[1] ?? '', text: match[3] ?? '' }];
      });
    },
    deliverPersonMessage: async (thread, text) => {
      await chat.handleLine(`/thread ${platform.threads.numberOf(thread)}`);
      await chat.handleLine(text);
    },
    // N13: `/answer <n|text>` answers the thread's open question.
    answerQuestion: async (thread, _cardRef, answer) => {
      await chat.handleLine(`/thread ${platform.threads.numberOf(thread)}`);
      await chat.handleLine(`/answer ${answer}`);
    },
    // P10: the terminal prints its posts to the output; nothing it prints is ever read back.
    echoOwnPosts: async () => {},
  };
});
