import { TOOL_LIST_LIMITS, toolInfos } from '../../../src/adapters/mcp/listed-tools';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' as const },
  ...extra,
});
const same = (text: string) => text;

describe('E3 a server’s tools list is untrusted', () => {
  it('E3 a long description is cut with a note', () => {
    const listed = toolInfos('docs', [tool('read', { description: 'd'.repeat(5000) })], same);
    expect(listed.tools[0]?.description).toBe(
      `${'d'.repeat(TOOL_LIST_LIMITS.descriptionChars)} [description cut]`,
    );
  });

  it('E3 a tool with a huge schema is left out, with a sentence', () => {
    const huge = tool('big', { inputSchema: { type: 'object', description: 'x'.repeat(40_000) } });
    const listed = toolInfos('docs', [huge, tool('small')], same);
    expect(listed.tools.map((info) => info.tool)).toEqual(['small']);
    expect(listed.unavailable).toEqual([
      {
        server: 'docs',
        reason: `The MCP server docs's tool "big" was left out: its input schema is larger than 32,000 characters.`,
      },
    ]);
  });

  it('E3 past the 128th tool none is offered, and the sentence says how many there were', () => {
    const many = Array.from({ length: 130 }, (_, index) => tool(`t${index}`));
    const listed = toolInfos('docs', many, same);
    expect(listed.tools).toHaveLength(128);
    expect(listed.unavailable).toEqual([
      { server: 'docs', reason: 'The MCP server docs lists 130 tools; only its first 128 are offered.' },
    ]);
  });
});
