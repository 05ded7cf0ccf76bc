import fc from 'fast-check';
import { anthropicTools } from '../../../src/adapters/runners/anthropic-tools';
import { requestJson } from '../../../src/adapters/runners/request-body';
import type { ToolSpec } from '../../../src/core/ports/turn-tools';

const json = fc.jsonValue() as fc.Arbitrary<unknown>;
const record = fc.dictionary(fc.string(), json);
const tool = fc.record(
  {
    name: fc.string(),
    description: fc.option(fc.string(), { nil: undefined }),
    input_schema: record.map((schema) => Object.freeze(schema)),
    cache_control: fc.constant({ type: 'ephemeral' }),
  },
  { requiredKeys: ['name'] },
);
const body = fc.record(
  {
    model: fc.string(),
    max_tokens: fc.nat(),
    messages: fc.array(json),
    tools: fc.array(
      fc.oneof(
        tool,
        tool.map((t) => Object.freeze(t)),
      ),
    ),
    tool_choice: fc.constant({ type: 'none' }),
  },
  { requiredKeys: [] },
);

/** A schema that counts how often it is written (JSON.stringify calls `toJSON`). */
const countingSchema = () => {
  const counter = { written: 0 };
  const schema = Object.freeze({
    type: 'object',
    toJSON() {
      counter.written += 1;
      return { type: 'object', properties: { command: { type: 'string' } } };
    },
  });
  return { counter, schema };
};

describe('A4, A14: a request body written once a call, its tools’ JSON kept between calls', () => {
  it('A4: is JSON.stringify’s text with the tools last, for any body, tools frozen or not', () => {
    fc.assert(
      fc.property(body, (b) => {
        const { tools, ...rest } = b;
        const written = requestJson(b);
        expect(written).toBe(JSON.stringify(tools === undefined ? rest : { ...rest, tools }));
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(b)));
      }),
      { numRuns: 500 },
    );
  });

  it('A14: a frozen tool is written once, however many requests carry it', () => {
    const { counter, schema } = countingSchema();
    const probe = Object.freeze({ name: 'bash', description: 'Runs a command.', input_schema: schema });
    const request = (text: string) => ({
      model: 'claude',
      messages: [{ role: 'user', content: text }],
      tools: [probe],
    });
    const bodies = ['one', 'two', 'three'].map((text) => requestJson(request(text)));
    expect(counter.written).toBe(1);
    expect(bodies.map((b) => JSON.parse(b))).toEqual(
      ['one', 'two', 'three'].map((text) => JSON.parse(JSON.stringify(request(text)))),
    );
  });

  it('A14: a turn’s tools are the same frozen objects turn after turn, the breakpoint on the last; an unfrozen (MCP) schema is built afresh', () => {
    const { schema } = countingSchema();
    const mcp = { type: 'object', properties: {} };
    const specs = (): ToolSpec[] => [
      { name: 'bash', description: 'Runs a command.', inputSchema: schema },
      // A tool sharing a schema under another name is a tool of its own.
      { name: 'sh', description: 'Runs a command too.', inputSchema: schema },
      { name: 'linear__list', description: 'Lists issues.', inputSchema: mcp, source: 'mcp' },
      { name: 'read', description: 'Reads.', inputSchema: schema },
    ];
    const first = anthropicTools(specs());
    const second = anthropicTools(specs());
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[3]).toBe(first[3]);
    expect(second[2]).not.toBe(first[2]);
    expect(first.map((t) => [t.name, t.description, Object.isFrozen(t)])).toEqual([
      ['bash', 'Runs a command.', true],
      ['sh', 'Runs a command too.', true],
      ['linear__list', 'Lists issues.', false],
      ['read', 'Reads.', true],
    ]);
    expect(first.map((t) => t.cache_control)).toEqual([
      undefined,
      undefined,
      undefined,
      { type: 'ephemeral' },
    ]);
    // The marked tool is a twin: the same tool elsewhere in a list carries no breakpoint.
    const [read] = anthropicTools([specs()[3] as ToolSpec, specs()[0] as ToolSpec]);
    expect(read).not.toBe(first[3]);
    expect(read?.cache_control).toBeUndefined();
  });
});
