import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ApprovalVerdict } from '../../core/model/approvals/approval';
import type { ChatEngine, PlatformActor } from '../../core/ports/chat-engine';
import type { InboundMessage } from '../../core/ports/chat-platform';
import { helpLines, parseTerminalInput } from './terminal-commands';
import type { TerminalPlatform } from './terminal-platform';
import { renderEntry, renderThread, renderThreadList, threadLabel } from './terminal-screen';

export interface TerminalChatOptions {
  /** What the person types (process.stdin, or a PassThrough in tests). */
  input: Readable;
  /** Prints to the screen; the same instance the core posts through. */
  platform: TerminalPlatform;
  /** The core: every typed message and click-equivalent becomes one call (bolt-js: translate only). */
  engine: ChatEngine;
  now: () => Date;
  /** Ids of inbound events (P6: each typed line is one event). */
  newId: () => string;
  /** `/threads` shows last activity in this IANA zone; UTC by default. */
  timeZone?: string;
  /** A10: printed first: the model agents use and how to change it, or (not found) how to get one. */
  modelLine?: { text: string; found: boolean };
}

export type LineResult = 'continue' | 'quit';

/**
 * The local chat: reads lines, turns each into one `ChatEngine` call or a screen command.
 * Lines are handled one after another, in the order typed, so a thread is started before
 * the next line can reply in it.
 */
export class TerminalChat {
  private current: number | null = null;

  constructor(private readonly options: TerminalChatOptions) {}

  /** The selected thread's number; null when the next message starts a new thread. */
  get currentThread(): number | null {
    return this.current;
  }

  /** Reads the input until `/quit` or its end; resolves once every line has been handled. */
  run(): Promise<void> {
    const { platform, input } = this.options;
    const lines = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    const { workspace, channel, user } = platform.identity;
    const model = this.options.modelLine;
    if (model !== undefined) {
      if (model.found) platform.screen.info(model.text);
      else platform.screen.problem(model.text);
    }
    platform.screen.info(
      `Summon · workspace ${workspace} · #${channel} · as ${user}. Type a message, or /help.`,
    );
    let done = Promise.resolve();
    let quitting = false;
    lines.on('line', (line) => {
      done = done.then(async () => {
        if (quitting) return;
        if ((await this.handleLine(line)) === 'quit') {
          quitting = true;
          lines.close();
        }
      });
    });
    return new Promise((resolve) => {
      lines.once('close', () => {
        void done.then(resolve);
      });
    });
  }

  /** One typed line. Never throws: a failure prints one line (STYLE: never a stack trace). */
  async handleLine(line: string): Promise<LineResult> {
    const screen = this.options.platform.screen;
    const input = parseTerminalInput(line);
    try {
      switch (input.kind) {
        case 'empty':
          return 'continue';
        case 'message':
          await this.send(input.text);
          return 'continue';
        case 'help':
          screen.print(helpLines());
          return 'continue';
        case 'threads':
          screen.print(this.listThreads());
          return 'continue';
        case 'thread':
          this.select(input.number);
          return 'continue';
        case 'new':
          this.current = null;
          screen.info('the next message starts a new thread');
          return 'continue';
        case 'note':
          await this.toggleNote(input.action, input.card);
          return 'continue';
        case 'approval':
          await this.decide(input.verdict, input.card);
          return 'continue';
        case 'answer':
          await this.answer(input.answer);
          return 'continue';
        case 'stop':
          await this.stop();
          return 'continue';
        case 'usage':
          screen.problem(`usage: ${input.usage}`);
          return 'continue';
        case 'unknown':
          screen.problem(`unknown command ${input.command}: /help lists the commands`);
          return 'continue';
        case 'quit':
          screen.info('bye');
          return 'quit';
      }
    } catch (error) {
      screen.problem(`that did not work: ${oneLine(error)}`);
      return 'continue';
    }
  }

  /** A person's line: a reply in the current thread, or a top-level message starting one (P3). */
  private async send(text: string): Promise<void> {
    const { platform, engine, now, newId } = this.options;
    const at = now();
    const topLevel = this.current === null;
    const thread =
      this.current === null ? platform.threads.start(at) : platform.threads.ensure(this.current, at);
    this.current = thread.number;
    const entry = platform.threads.addPerson(thread.number, platform.identity.user, text, at);
    platform.screen.print(renderEntry(thread.number, entry));
    const message: InboundMessage = {
      platform: 'terminal',
      eventId: newId(),
      workspace: { slug: platform.identity.workspace },
      channelId: platform.identity.channel,
      thread: thread.id,
      topLevel,
      messageRef: entry.ref,
      senderId: platform.identity.user,
      text,
      receivedAt: at,
    };
    const where = threadLabel(thread.number);
    try {
      const outcome = await engine.receive(message);
      // P8: the core refused (unknown account, role, unbound channel); say why here too.
      if (outcome.kind === 'refused') platform.screen.problem(`${where} ${outcome.reason}`);
    } catch (error) {
      platform.screen.problem(`${where} the message was not delivered: ${oneLine(error)}`);
    }
  }

  private select(number: number): void {
    const { platform } = this.options;
    const thread = platform.threads.get(number);
    if (thread === undefined) {
      platform.screen.problem(`there is no thread ${threadLabel(number)}: /threads lists them`);
      return;
    }
    this.current = number;
    platform.screen.print(renderThread(thread));
  }

  /** N7: only the display changes; the core edits the note, and the edit is printed. */
  private async toggleNote(action: 'open' | 'fold', card: number): Promise<void> {
    const thread = this.selectedThread();
    if (thread === null) return;
    const content = this.options.platform.threads.card(thread, card)?.message.content;
    if (content?.kind !== 'note') {
      this.options.platform.screen.problem(`${threadLabel(thread)} has no note #${card}`);
      return;
    }
    await this.options.engine.act(
      { kind: 'note', verb: action, messageId: content.card.messageId },
      this.actor(),
    );
  }

  /** G4, P5: the core checks the person's role; a refusal carries the sentence to show. */
  private async decide(verdict: ApprovalVerdict, card: number): Promise<void> {
    const thread = this.selectedThread();
    if (thread === null) return;
    const { platform, engine } = this.options;
    const content = platform.threads.card(thread, card)?.message.content;
    if (content?.kind !== 'approval') {
      platform.screen.problem(`${threadLabel(thread)} has no approval card #${card}`);
      return;
    }
    const result = await engine.act(
      { kind: 'approval', verdict, approvalId: content.card.approvalId },
      this.actor(),
    );
    if (!result.ok) platform.screen.problem(`${threadLabel(thread)} approval #${card}: ${result.reason}`);
  }

  /** N13: answers the thread's open question; the core checks the person and the option. */
  private async answer(answer: string): Promise<void> {
    const thread = this.selectedThread();
    if (thread === null) return;
    const { platform, engine } = this.options;
    const entry = platform.threads.pendingQuestion(thread);
    if (entry?.message.content.kind !== 'question') {
      platform.screen.problem(`${threadLabel(thread)} has no question waiting for an answer`);
      return;
    }
    const { questionId } = entry.message.content.card;
    const result = await engine.act({ kind: 'answer', questionId, answer }, this.actor());
    if (!result.ok)
      platform.screen.problem(`${threadLabel(thread)} question #${entry.cardNumber}: ${result.reason}`);
  }

  /** P15: Stop for every turn of the thread still working; the core checks who may. */
  private async stop(): Promise<void> {
    const thread = this.selectedThread();
    if (thread === null) return;
    const { platform, engine } = this.options;
    const runIds = platform.threads.workingRuns(thread);
    if (runIds.length === 0) {
      platform.screen.problem(`${threadLabel(thread)} has no turn working`);
      return;
    }
    for (const runId of runIds) {
      const result = await engine.act({ kind: 'stop-run', runId }, this.actor());
      if (!result.ok) platform.screen.problem(`${threadLabel(thread)} stop: ${result.reason}`);
    }
  }

  private selectedThread(): number | null {
    if (this.current === null) {
      this.options.platform.screen.problem('no thread selected: /thread <n> first (/threads lists them)');
    }
    return this.current;
  }

  private listThreads(): string[] {
    const { platform, timeZone } = this.options;
    const options = timeZone === undefined ? { current: this.current } : { current: this.current, timeZone };
    return renderThreadList(platform.threads.list(), options);
  }

  private actor(): PlatformActor {
    const { identity } = this.options.platform;
    return { platform: 'terminal', workspace: { slug: identity.workspace }, senderId: identity.user };
  }
}

/** The first line of an error's message: a sentence for the person, never a stack. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}
