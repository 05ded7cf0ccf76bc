import { anthropicImageProblem } from './image-content-validation';
import { schemaProblem } from './json-schema-check';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const THINKING_FIRST =
  'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** The Messages API's checks of `tools`, in its own words; undefined when valid. */
export function toolsProblem(tools: unknown): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) return `tools.${index}: Input should be a valid dictionary`;
    const at = `tools.${index}.custom`;
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      return `${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    }
    if (names.has(tool.name)) return 'tools: Tool names must be unique.';
    names.add(tool.name);
    if (tool.description !== undefined && typeof tool.description !== 'string') {
      return `${at}.description: Input should be a valid string`;
    }
    const schema = tool.input_schema;
    if (!isObject(schema)) return `${at}.input_schema: Field required`;
    if (schema.type !== 'object') return `${at}.input_schema.type: Input should be 'object'`;
    if (schemaProblem(schema) !== undefined) {
      return `${at}.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.`;
    }
  }
  return undefined;
}

/**
 * Content blocks and the pairing of tool calls: each `tool_result` answers a `tool_use` of the
 * previous assistant message, every `tool_use` is answered in the next user message, and with
 * thinking on, the assistant message of the current tool loop starts with a thinking block.
 */
export function toolPairingProblem(
  messages: readonly Record<string, unknown>[],
  thinking: boolean,
): string | undefined {
  const blocksOf = (message: Record<string, unknown> | undefined): Record<string, unknown>[] =>
    Array.isArray(message?.content) ? message.content.filter(isObject) : [];
  for (const [index, message] of messages.entries()) {
    const blocks = blocksOf(message);
    for (const [b, block] of blocks.entries()) {
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text === '')) {
        return `messages.${index}.content.${b}.text: text content blocks must be non-empty`;
      }
      if (block.type === 'image') {
        // P13: an attached image, checked as the API checks it.
        const problem = anthropicImageProblem(block, `messages.${index}.content.${b}`, message.role);
        if (problem !== undefined) return problem;
      }
      if (block.type === 'tool_use' && message.role !== 'assistant') {
        return `messages.${index}.content.${b}: \`tool_use\` blocks can only be in \`assistant\` messages`;
      }
      if (block.type === 'tool_result' && message.role !== 'user') {
        return `messages.${index}.content.${b}: \`tool_result\` blocks can only be in \`user\` messages`;
      }
      if (block.type === 'tool_use' && (typeof block.id !== 'string' || !isObject(block.input))) {
        return `messages.${index}.content.${b}.tool_use.input: Input should be a valid dictionary`;
      }
    }
    if (message.role === 'user') {
      const asked = new Set(
        blocksOf(messages[index - 1])
          .filter((block) => block.type === 'tool_use')
          .map((block) => String(block.id)),
      );
      for (const [b, block] of blocks.entries()) {
        if (block.type !== 'tool_result') continue;
        if (!asked.has(String(block.tool_use_id))) {
          return `messages.${index}.content.${b}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
    if (message.role === 'assistant') {
      const calls = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      if (calls.length === 0) continue;
      const answered = new Set(
        blocksOf(messages[index + 1])
          .filter((block) => block.type === 'tool_result')
          .map((block) => String(block.tool_use_id)),
      );
      const missing = calls.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
  }
  if (thinking) {
    // The assistant message that opened the current tool loop must start with thinking.
    const last = messages.length - 1;
    const loopOpener = messages[last - 1];
    const answersTools = blocksOf(messages[last]).some((block) => block.type === 'tool_result');
    const first = blocksOf(loopOpener)[0];
    if (
      answersTools &&
      first !== undefined &&
      first.type !== 'thinking' &&
      first.type !== 'redacted_thinking'
    ) {
      return `messages.${last - 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.type)}\`. ${THINKING_FIRST}`;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
