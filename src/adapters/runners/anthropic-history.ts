import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { RunnerRequest } from '../../core/ports/runner';
import { summaryNote } from './compaction';
import { anthropicPromptContent } from './image-content';
import type { LoopHistory } from './model-loop';

const CACHED = { type: 'ephemeral' } as const;

/**
 * A14: the messages of a request, every one in block form (a string and its one text block are
 * the same to the cache, but not byte for byte): the prompt (A15: then the summary), the rounds,
 * and the summary request's instruction in the last user message. Two cache breakpoints mark
 * the last block of the newest user message (what the next request reads) and of the one before
 * it (what this request reads, written by the previous one); with the tools' and the system's,
 * four, the API's limit.
 */
export function anthropicMessages(
  request: RunnerRequest,
  history: LoopHistory<MessageParam[]>,
): MessageParam[] {
  const head = blocksOf(anthropicPromptContent(request.prompt, request.images));
  if (history.summary !== undefined) head.push({ type: 'text', text: summaryNote(history.summary) });
  const messages: MessageParam[] = [
    { role: 'user', content: head },
    ...history.exchanges
      .flat()
      .map((message) => ({ ...message, content: blocksOf(message.content) }) as MessageParam),
  ];
  const last = messages.at(-1);
  if (history.ask !== undefined && last !== undefined) {
    // The API wants user and assistant turns to alternate: the instruction joins the last user turn.
    if (last.role === 'user') last.content = [...blocksOf(last.content), { type: 'text', text: history.ask }];
    else messages.push({ role: 'user', content: [{ type: 'text', text: history.ask }] });
  }
  const users = messages.filter((message) => message.role === 'user');
  for (const message of users.slice(-2)) markLastBlock(message);
  return messages;
}

/** A14: the system prompt as one text block with a breakpoint. */
export const cachedSystem = (system: string): TextBlockParam[] => [
  { type: 'text', text: system, cache_control: CACHED },
];

function blocksOf(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
}

/** A breakpoint on the message's last block that can take one (not thinking, not empty text). */
function markLastBlock(message: MessageParam): void {
  const blocks = blocksOf(message.content);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as ContentBlockParam;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && block.text === '') continue;
    blocks[i] = Object.assign({}, block, { cache_control: CACHED }) as ContentBlockParam;
    break;
  }
  message.content = blocks;
}
