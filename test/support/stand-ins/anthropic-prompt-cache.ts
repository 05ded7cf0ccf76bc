import { createHash } from 'node:crypto';

/**
 * The Anthropic API's prompt cache, as far as a client can observe it (A14): a request is read as
 * one sequence of blocks — the tools, then the system blocks, then every message's content
 * blocks — and a `cache_control` on a block marks the prefix ending there for the cache. At
 * most four such breakpoints are taken; thinking blocks and empty text blocks cannot carry one.
 * A request reads the longest prefix a previous request wrote (looked for at every block
 * boundary up to 20 blocks before each breakpoint, as the API does), writes the rest up to its
 * last breakpoint, and pays full input for what follows. Tokens are estimated at four characters
 * of the block's JSON each; the marks themselves are not part of what is compared.
 */
export interface PromptCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

interface FlatBlock {
  /** The block's JSON without its `cache_control`. */
  json: string;
  tokens: number;
  breakpoint: boolean;
}

const MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;

/** What the real API refuses about `cache_control` marks; undefined when they are valid. */
export function cacheControlProblem(body: Record<string, unknown>): string | undefined {
  let found = 0;
  const check = (block: unknown, where: string): string | undefined => {
    if (!isObject(block) || block.cache_control === undefined) return undefined;
    found += 1;
    const mark = block.cache_control;
    if (!isObject(mark) || mark.type !== 'ephemeral')
      return `${where}.cache_control.type: Input should be 'ephemeral'`;
    if (mark.ttl !== undefined && mark.ttl !== '5m' && mark.ttl !== '1h')
      return `${where}.cache_control.ttl: Input should be '5m' or '1h'`;
    if (block.type === 'thinking' || block.type === 'redacted_thinking')
      return `${where}.${String(block.type)}.cache_control: Extra inputs are not permitted`;
    if (block.type === 'text' && block.text === '')
      return `${where}: cache_control cannot be set for empty text blocks`;
    return undefined;
  };
  const problems = [
    ...asArray(body.tools).map((tool, i) => check(tool, `tools.${i}`)),
    ...asArray(body.system).map((block, i) => check(block, `system.${i}`)),
    ...asArray(body.messages).flatMap((message, m) =>
      asArray(isObject(message) ? message.content : undefined).map((block, b) =>
        check(block, `messages.${m}.content.${b}`),
      ),
    ),
  ];
  const problem = problems.find((p) => p !== undefined);
  if (problem !== undefined) return problem;
  if (found > MAX_BREAKPOINTS)
    return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`;
  return undefined;
}

/** The prefixes written so far, by the hash of everything up to a breakpoint. */
export class PromptCache {
  private readonly written = new Set<string>();

  /** The usage the API reports for `body`, and the prefixes it writes. */
  use(body: Record<string, unknown>): PromptCacheUsage {
    const blocks = flatten(body);
    const hashes: string[] = [];
    const tokensUpTo: number[] = [];
    let hash = createHash('sha256').update(String(body.model)).digest('hex');
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.json).digest('hex');
      tokens += block.tokens;
      hashes.push(hash);
      tokensUpTo.push(tokens);
    }
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    const last = breakpoints.at(-1);
    if (last === undefined)
      return { input_tokens: tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    let read = 0;
    for (const point of breakpoints) {
      for (let i = point; i >= Math.max(0, point - LOOKBACK_BLOCKS); i--) {
        if (this.written.has(hashes[i] ?? '')) {
          read = Math.max(read, tokensUpTo[i] ?? 0);
          break;
        }
      }
    }
    for (const point of breakpoints) this.written.add(hashes[point] ?? '');
    const cached = tokensUpTo[last] ?? 0;
    return {
      input_tokens: tokens - cached,
      cache_creation_input_tokens: cached - read,
      cache_read_input_tokens: read,
    };
  }
}

/** A request as the cache sees it: tools, system, then the messages' blocks, in order. */
export function flatten(body: Record<string, unknown>): FlatBlock[] {
  const system =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : asArray(body.system);
  const messageBlocks = asArray(body.messages).flatMap((message) => {
    if (!isObject(message)) return [];
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : asArray(message.content);
    // The role is part of what is compared: it goes with the message's first block.
    return content.map((block, index) => (index === 0 ? { role: message.role, block } : { block }));
  });
  return [...asArray(body.tools), ...system, ...messageBlocks].map((item) => {
    const marked = isObject(item) && isObject(item.block) ? item.block : item;
    const breakpoint = isObject(marked) && marked.cache_control !== undefined;
    const json = JSON.stringify(item, (key, value) => (key === 'cache_control' ? undefined : value));
    return { json, tokens: Math.ceil(json.length / 4), breakpoint };
  });
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
