import { randomUUID } from 'node:crypto';
import type { ApprovalVerdict } from '../../src/core/model/approvals/approval';
import type { CardAction, CardActionResult } from '../../src/core/model/card-action';
import type { ChatEngine, PlatformActor, ReceiveOutcome } from '../../src/core/ports/chat-engine';
import type {
  ChatPlatform,
  InboundMessage,
  OutboundMessage,
  ThreadId,
} from '../../src/core/ports/chat-platform';

/** One call a front end made into the core. */
export type EngineCall =
  | { kind: 'receive'; message: InboundMessage }
  | { kind: 'toggleNote'; messageId: string; action: NoteAction; actor: PlatformActor }
  | { kind: 'decideApproval'; approvalId: string; verdict: Verdict; actor: PlatformActor }
  | { kind: 'answerQuestion'; questionId: string; answer: string; actor: PlatformActor }
  | { kind: 'stopRun'; runId: string; actor: PlatformActor }
  | { kind: 'stopThread'; thread: string; actor: PlatformActor };

export type DecideResult = CardActionResult<Extract<CardAction, { kind: 'approval' }>>;
type StopThreadResult = CardActionResult<Extract<CardAction, { kind: 'stop-thread' }>>;
type NoteAction = 'open' | 'fold';
type Verdict = ApprovalVerdict;

/** How the fake core answers; each hook may also call the platform back, as the real core does. */
export interface RecordingChatEngineBehaviour {
  receive?: (message: InboundMessage) => ReceiveOutcome | Promise<ReceiveOutcome>;
  toggleNote?: (messageId: string, action: NoteAction, actor: PlatformActor) => void | Promise<void>;
  decideApproval?: (
    id: string,
    verdict: Verdict,
    actor: PlatformActor,
  ) => DecideResult | Promise<DecideResult>;
  answerQuestion?: (id: string, answer: string, actor: PlatformActor) => DecideResult | Promise<DecideResult>;
  stopRun?: (runId: string, actor: PlatformActor) => DecideResult | Promise<DecideResult>;
  stopThread?: (thread: string, actor: PlatformActor) => StopThreadResult | Promise<StopThreadResult>;
}

/**
 * A hand-written stand-in for the core (STYLE: fakes over module mocks): records every call a
 * front end makes and answers as told (by default: accepted, ok).
 */
export class RecordingChatEngine implements ChatEngine {
  readonly calls: EngineCall[] = [];

  constructor(public behaviour: RecordingChatEngineBehaviour = {}) {}

  get received(): InboundMessage[] {
    return this.calls.flatMap((call) => (call.kind === 'receive' ? [call.message] : []));
  }

  async receive(message: InboundMessage): Promise<ReceiveOutcome> {
    this.calls.push({ kind: 'receive', message });
    return (
      (await this.behaviour.receive?.(message)) ?? { kind: 'accepted', conversationId: 'c-1', runIds: [] }
    );
  }

  /** Recorded as the call each kind of action stands for, answered by its hook. */
  async act<A extends CardAction>(action: A, actor: PlatformActor): Promise<CardActionResult<A>> {
    return (await this.answer(action, actor)) as CardActionResult<A>;
  }

  private async answer(action: CardAction, actor: PlatformActor): Promise<CardActionResult> {
    switch (action.kind) {
      case 'note':
        this.calls.push({ kind: 'toggleNote', messageId: action.messageId, action: action.verb, actor });
        await this.behaviour.toggleNote?.(action.messageId, action.verb, actor);
        return { ok: true };
      case 'approval':
        this.calls.push({
          kind: 'decideApproval',
          approvalId: action.approvalId,
          verdict: action.verdict,
          actor,
        });
        return (
          (await this.behaviour.decideApproval?.(action.approvalId, action.verdict, actor)) ?? { ok: true }
        );
      case 'answer':
        this.calls.push({
          kind: 'answerQuestion',
          questionId: action.questionId,
          answer: action.answer,
          actor,
        });
        return (
          (await this.behaviour.answerQuestion?.(action.questionId, action.answer, actor)) ?? { ok: true }
        );
      case 'stop-run':
        this.calls.push({ kind: 'stopRun', runId: action.runId, actor });
        return (await this.behaviour.stopRun?.(action.runId, actor)) ?? { ok: true };
      case 'stop-thread':
        this.calls.push({ kind: 'stopThread', thread: action.thread, actor });
        return (await this.behaviour.stopThread?.(action.thread, actor)) ?? { ok: true, stopped: 1 };
    }
  }
}

/** A message as people see it in a thread: who it shows as, and all of its visible text. */
export interface SeenMessage {
  ref: string;
  /** The name it is shown under (P2: the agent's own name for an agent's post). */
  author: string;
  text: string;
}

/**
 * What the contract needs from one platform: the `ChatPlatform` under test, its thread id
 * codec, a way to look at threads as people see them, and a way to deliver platform events
 * to a `RecordingChatEngine`. `Parts` is the platform's decoded thread id.
 */
export interface PlatformHarness<Parts> {
  platform: ChatPlatform;
  /** The fake core the front end delivers inbound events to. */
  engine: RecordingChatEngine;
  /** A channel bound to a space, where threads can be posted into. */
  boundChannel: string;
  /** The platform account of a known person (a member), for private messages and inbound events. */
  personId: string;
  encodeThreadId(parts: Parts): ThreadId;
  decodeThreadId(id: ThreadId): Parts | null;
  /** Decoded ids to round-trip: several channels and threads. */
  sampleThreadParts: readonly Parts[];
  /** Strings that are not this platform's thread ids (another platform's, malformed). */
  foreignThreadIds: readonly string[];
  /** The n-th distinct thread of a channel, ready to post into (started first if the platform needs it). */
  threadIdFor(channel: string, n: number): Promise<ThreadId>;
  /** The thread's messages as people see them, oldest first, one entry per message. */
  messagesIn(thread: ThreadId): Promise<SeenMessage[]>;
  /** What was told privately to whom in that thread. */
  privateMessagesIn(thread: ThreadId): Promise<{ to: string; text: string }[]>;
  /**
   * A platform with no private messages (GitHub) tells the person in the thread, naming them:
   * `tellPrivately` then adds one message there (the port's "threaded where it cannot be private").
   */
  tellsInThread?: boolean;
  /** P9, T2: the platform keeps no cards with a Stop to read back (GitHub): `findRunCard` is absent. */
  readsNoRunCards?: boolean;
  /** The person writes `text` as a reply in the thread; the front end delivers it as it would. */
  deliverPersonMessage(thread: ThreadId, text: string): Promise<void>;
  /** N13: the person answers the question card `cardRef` of the thread the platform's way. */
  answerQuestion(thread: ThreadId, cardRef: string, answer: string): Promise<void>;
  /**
   * Hands the front end every message it posted, the way the platform would show them to a
   * bot (Slack's message events for its own posts, Discord's webhook messages); the terminal
   * prints its posts and never reads them, so it has nothing to hand back.
   */
  echoOwnPosts(): Promise<void>;
  close?(): Promise<void>;
}

export type PlatformHarnessFactory<Parts> = () => PlatformHarness<Parts> | Promise<PlatformHarness<Parts>>;

const agent = (name: string): OutboundMessage['as'] => ({ kind: 'agent', name, avatarUrl: null });
const text = (body: string, as = agent('engineer')): OutboundMessage => ({
  as,
  content: { kind: 'text', text: body },
});
const status = (state: 'working' | 'done', headline: string, rows: string[]): OutboundMessage => ({
  as: agent('engineer'),
  content: { kind: 'status', card: { agent: 'engineer', state, headline, rows } },
});
/** P15: a working card whose Stop names the run. */
const running = (runId: string): OutboundMessage => ({
  as: agent('engineer'),
  content: {
    kind: 'status',
    card: { agent: 'engineer', state: 'working', headline: 'Working on it…', rows: [], stopRunId: runId },
  },
});
const note = (open: boolean): OutboundMessage => ({
  as: agent('architect'),
  content: {
    kind: 'note',
    card: {
      messageId: 'msg-7',
      row: 'note from this relay · report builder · working · 14:02',
      text: 'Draft the report outline',
      open,
    },
  },
});
const approval = (decided: boolean): OutboundMessage => ({
  as: agent('engineer'),
  content: {
    kind: 'approval',
    card: {
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'push_to_remote',
      summary: 'push 2 commits to acme/api main',
      details: ['a1b2c3d → e4f5a6b'],
      status: decided ? 'approved' : 'pending',
      decidedBy: decided ? 'dana' : null,
    },
  },
});

const question = (answered: boolean): OutboundMessage => ({
  as: agent('engineer'),
  content: {
    kind: 'question',
    card: {
      questionId: 'q-1',
      agent: 'engineer',
      text: 'Which database should the report use?',
      options: ['PostgreSQL', 'SQLite'],
      status: answered ? 'answered' : 'pending',
      answer: answered ? 'SQLite' : null,
      answeredBy: answered ? 'dana' : null,
    },
  },
});

/** The behaviour every chat platform shares (terminal, Slack, Discord), registered as jest tests. */
export function describePlatformContract<Parts>(
  name: string,
  makeHarness: PlatformHarnessFactory<Parts>,
): void {
  describe(`${name}: ChatPlatform contract`, () => {
    let harness: PlatformHarness<Parts>;
    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(async () => {
      await harness.close?.();
    });

    const firstThread = () => harness.threadIdFor(harness.boundChannel, 1);
    const seen = async (thread: ThreadId, ref: string) => {
      const message = (await harness.messagesIn(thread)).find((m) => m.ref === ref);
      if (message === undefined) throw new Error(`message ${ref} is not in ${thread}`);
      return message;
    };

    it('thread ids round-trip and carry the platform name', () => {
      expect(harness.sampleThreadParts.length).toBeGreaterThan(1);
      const ids = harness.sampleThreadParts.map((parts) => harness.encodeThreadId(parts));
      harness.sampleThreadParts.forEach((parts, i) => {
        const id = ids[i] ?? '';
        expect(id.startsWith(`${harness.platform.platform}:`)).toBe(true);
        expect(harness.decodeThreadId(id)).toEqual(parts);
      });
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('two threads of a bound channel have distinct ids that round-trip', async () => {
      const ids = [await firstThread(), await harness.threadIdFor(harness.boundChannel, 2)];
      expect(ids[0]).not.toBe(ids[1]);
      for (const id of ids) {
        const parts = harness.decodeThreadId(id);
        expect(parts === null ? null : harness.encodeThreadId(parts)).toBe(id);
      }
    });

    it('other platforms’ and malformed thread ids do not decode', () => {
      for (const id of harness.foreignThreadIds) expect(harness.decodeThreadId(id)).toBeNull();
    });

    it('P2: a posted message shows in its thread under the agent’s name, and only there', async () => {
      const thread = await firstThread();
      const other = await harness.threadIdFor(harness.boundChannel, 2);
      const ref = await harness.platform.post(thread, text('The login bug is fixed.'));
      expect(typeof ref).toBe('string');
      expect(ref).not.toBe('');
      const message = await seen(thread, ref);
      expect(message.author).toBe('engineer');
      expect(message.text).toContain('The login bug is fixed.');
      expect((await harness.messagesIn(other)).some((m) => m.text.includes('The login bug is fixed.'))).toBe(
        false,
      );
    });

    it('P2: posts keep their order and get distinct refs', async () => {
      const thread = await firstThread();
      const first = await harness.platform.post(thread, text('first', agent('architect')));
      const second = await harness.platform.post(thread, text('second', agent('qa')));
      expect(first).not.toBe(second);
      const refs = (await harness.messagesIn(thread)).map((m) => m.ref);
      expect(refs.indexOf(first)).toBeLessThan(refs.indexOf(second));
      expect((await seen(thread, second)).author).toBe('qa');
    });

    it('P9: a status card is edited in place, without adding a message', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, status('working', 'Working on it…', []));
      const count = (await harness.messagesIn(thread)).length;
      await harness.platform.update(thread, ref, status('done', 'Pushed the fix', ['git push']));
      expect((await harness.messagesIn(thread)).length).toBe(count);
      const card = await seen(thread, ref);
      expect(card.text).toContain('Pushed the fix');
      expect(card.text).toContain('git push');
      expect(card.text).not.toContain('Working on it…');
    });

    it('P9, T2: a working card is read back from its thread by the run its Stop names, and nothing else is', async () => {
      if (harness.readsNoRunCards === true) {
        expect(harness.platform.findRunCard).toBeUndefined();
        return;
      }
      const find = harness.platform.findRunCard?.bind(harness.platform);
      if (find === undefined) throw new Error('findRunCard is missing');
      const since = new Date(Date.now() - 1000);
      const [one, two, other] = [randomUUID(), randomUUID(), randomUUID()];
      const thread = await firstThread();
      await harness.platform.post(thread, text('before the cards'));
      const ref = await harness.platform.post(thread, running(one));
      const second = await harness.platform.post(thread, running(two));
      await harness.platform.post(thread, text('after the cards'));
      expect(await find(thread, one, since)).toBe(ref);
      expect(await find(thread, two, since)).toBe(second);
      expect(await find(thread, other, since)).toBeNull();
      expect(await find(await harness.threadIdFor(harness.boundChannel, 2), one, since)).toBeNull();
      // A card that shows its end has no Stop: nothing is left to read back.
      await harness.platform.update(thread, ref, status('done', 'Pushed the fix', []));
      expect(await find(thread, one, since)).toBeNull();
    });

    it('P4, N7: a folded note shows its row only; the edit that opens it shows the note', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, note(false));
      const count = (await harness.messagesIn(thread)).length;
      const folded = await seen(thread, ref);
      expect(folded.text).toContain('report builder');
      expect(folded.text).not.toContain('Draft the report outline');
      await harness.platform.update(thread, ref, note(true));
      expect((await harness.messagesIn(thread)).length).toBe(count);
      expect((await seen(thread, ref)).text).toContain('Draft the report outline');
    });

    it('G4: an approval card is updated with the decision and who made it', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, approval(false));
      const count = (await harness.messagesIn(thread)).length;
      expect((await seen(thread, ref)).text).toContain('push 2 commits to acme/api main');
      await harness.platform.update(thread, ref, approval(true));
      expect((await harness.messagesIn(thread)).length).toBe(count);
      expect((await seen(thread, ref)).text).toContain('dana');
    });

    it('N13: a question card shows the question and its options; the edit shows the answer and who gave it', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, question(false));
      const count = (await harness.messagesIn(thread)).length;
      const shown = (await seen(thread, ref)).text;
      expect(shown).toContain('Which database should the report use?');
      expect(shown).toMatch(/1\D+PostgreSQL/);
      expect(shown).toMatch(/2\D+SQLite/);
      await harness.platform.update(thread, ref, question(true));
      expect((await harness.messagesIn(thread)).length).toBe(count);
      const answered = (await seen(thread, ref)).text;
      expect(answered).toContain('SQLite');
      expect(answered).toContain('dana');
    });

    it('N13: a person’s answer to a question card reaches the core as answerQuestion with the question id', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, question(false));
      await harness.answerQuestion(thread, ref, '2');
      expect(harness.engine.calls).toEqual([
        expect.objectContaining({ kind: 'answerQuestion', questionId: 'q-1', answer: '2' }),
      ]);
      const [call] = harness.engine.calls;
      expect(call?.kind === 'answerQuestion' ? call.actor.senderId : null).toBe(harness.personId);
    });

    it('N4: startThread opens a new thread of the bound channel with the message as its first', async () => {
      const existing = await firstThread();
      const started = await harness.platform.startThread(
        harness.boundChannel,
        text('via agent · "nightly digest"'),
      );
      expect(started.thread).not.toBe(existing);
      expect(harness.decodeThreadId(started.thread)).not.toBeNull();
      const [first, ...rest] = await harness.messagesIn(started.thread);
      expect(first?.ref).toBe(started.messageRef);
      expect(first?.text).toContain('via agent · "nightly digest"');
      expect(rest).toEqual([]);
      // and it can be posted into like any thread
      const ref = await harness.platform.post(started.thread, note(true));
      expect((await harness.messagesIn(started.thread)).map((m) => m.ref)).toEqual([started.messageRef, ref]);
    });

    it('updating a message that was never posted fails', async () => {
      const thread = await firstThread();
      await expect(harness.platform.update(thread, 'no-such-message', text('x'))).rejects.toThrow();
    });

    it('tellPrivately reaches the person and adds no message to the thread (where it can be private)', async () => {
      const thread = await firstThread();
      await harness.platform.post(thread, text('hello'));
      const before = await harness.messagesIn(thread);
      await harness.platform.tellPrivately(thread, harness.personId, '@arch matched architect and archivist');
      const after = await harness.messagesIn(thread);
      if (harness.tellsInThread === true) {
        expect(after.slice(0, before.length)).toEqual(before);
        expect(after).toHaveLength(before.length + 1);
        expect(after.at(-1)?.text).toContain(`@${harness.personId}`);
      } else expect(after).toEqual(before);
      expect(await harness.privateMessagesIn(thread)).toContainEqual({
        to: harness.personId,
        text: '@arch matched architect and archivist',
      });
    });

    it('a person’s message reaches the core once, as this platform’s event in its thread', async () => {
      const thread = await firstThread();
      await harness.deliverPersonMessage(thread, '@engineer fix the login bug');
      await harness.deliverPersonMessage(thread, 'and add a test');
      const [first, second, ...rest] = harness.engine.received;
      expect(rest).toEqual([]);
      expect(first).toMatchObject({
        platform: harness.platform.platform,
        thread,
        topLevel: false,
        text: '@engineer fix the login bug',
        channelId: harness.boundChannel,
      });
      expect(second?.text).toBe('and add a test');
      // P6: two messages are two events.
      expect(first?.eventId).not.toBe(second?.eventId);
    });

    it('P10: the platform’s own posts and edits never reach the core as input', async () => {
      const thread = await firstThread();
      const ref = await harness.platform.post(thread, status('working', 'Working on it…', []));
      await harness.platform.update(thread, ref, status('done', 'Done', ['npm test']));
      await harness.platform.post(thread, text('@qa please review', agent('engineer')));
      await harness.platform.post(thread, {
        as: { kind: 'system' },
        content: { kind: 'text', text: 'note' },
      });
      await harness.platform.post(thread, note(true));
      await harness.platform.post(thread, approval(false));
      await harness.platform.post(thread, question(false));
      await harness.platform.tellPrivately(thread, harness.personId, 'only for you');
      await harness.echoOwnPosts();
      expect(harness.engine.calls).toEqual([]);
      // The pipe is live: a person's message does get through.
      await harness.deliverPersonMessage(thread, 'thanks');
      expect(harness.engine.received.map((m) => m.text)).toEqual(['thanks']);
    });
  });
}
