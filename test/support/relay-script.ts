import { waitFor } from './engine-harness';
import { DANA, type RelaySide } from './relay-pair';
import { BOT_USER, CHANNEL, deliver, eventFrom } from './slack-delivery';
import type { StandInReply } from './stand-ins/anthropic-stand-in';

/** Reading the Anthropic stand-in's requests and scripting its replies, for the relay tests. */
type Block = { type?: string; text?: string; content?: unknown };
type Message = { role: string; content: string | Block[] };
export const messagesOf = (body: unknown) => ((body as { messages?: Message[] }).messages ?? []) as Message[];
export const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((b: Block) => (b.type === 'text' ? (b.text ?? '') : textOf(b.content))).join('\n')
      : '';
export const firstText = (body: unknown) => textOf(messagesOf(body)[0]?.content);
/** The newest tool result's text, or null when the last message is not one. */
export const toolResult = (body: unknown): string | null => {
  const last = messagesOf(body).at(-1)?.content;
  if (!Array.isArray(last)) return null;
  const result = last.find((b) => b.type === 'tool_result');
  return result === undefined ? null : textOf(result.content);
};
/** Every tool result of the turn so far, oldest first. */
export const toolResults = (body: unknown): string[] =>
  messagesOf(body).flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.filter((b) => b.type === 'tool_result').map((b) => textOf(b.content))
      : [],
  );
export const task = (body: unknown) => /task-[a-z-]+/.exec(firstText(body))?.[0] ?? '';
export const use = (name: string, input: Record<string, unknown>): StandInReply => ({
  kind: 'stream',
  blocks: [{ type: 'tool_use', name, input }],
  stopReason: 'tool_use',
});
export const say = (text: string): StandInReply => ({
  kind: 'stream',
  blocks: [{ type: 'text', chunks: [text] }],
});

let eventNo = 0;

/** dana mentions `agent` with `text` in a new thread of the side's channel; resolves with the thread's ts. */
export async function mentionOn(side: RelaySide, agent: string, text: string): Promise<string> {
  const ts = side.slack.addPersonMessage(CHANNEL, null);
  eventNo += 1;
  const mention = eventFrom(
    'app-mention',
    { ts, user: DANA, text: `<@${BOT_USER}> @${agent} ${text}` },
    `Ev${side.name}${eventNo}`,
  );
  const delivered = await deliver(`${side.url}/slack/events`, mention);
  if (delivered.status !== 200) throw new Error(`the mention was refused: ${delivered.status}`);
  return ts;
}

/** The first reply in the thread containing `marker` (the scripted agents' replies say "A got:"). */
export async function replyIn(side: RelaySide, ts: string, marker = 'A got:'): Promise<string> {
  const reply = await waitFor(
    async () =>
      side.slack.inThread(CHANNEL, ts).find((m) => m.blocks === null && m.text.includes(marker)) ?? null,
    240_000,
  );
  return reply.text;
}

/** R1: A offers at `level`, B accepts at `level`, through `summon relays pair`. */
export async function pairSides(a: RelaySide, b: RelaySide, level = 'full'): Promise<string> {
  const offered = await a.cli(['relays', 'pair', '--level', level]);
  const offer = /summon relays pair --accept (\S+)/.exec(offered.stdout)?.[1] ?? '';
  const accepted = await b.cli(['relays', 'pair', '--accept', offer, '--level', level]);
  if (accepted.code !== 0) throw new Error(`pairing failed: ${accepted.stderr}`);
  return offer;
}

/** The side's workspace accepts `relay` at `level` from now on (its workspace file's `relays.accept`). */
export async function acceptAt(side: RelaySide, relay: string, level: 'read' | 'prompt' | 'full') {
  await side.store.inWorkspace(side.workspaceId, async (tx) => {
    const settings = await tx.relays.settings(side.workspaceId);
    await tx.relays.setSettings(side.workspaceId, { ...settings, accepted: [{ relay, level }] });
  });
}
