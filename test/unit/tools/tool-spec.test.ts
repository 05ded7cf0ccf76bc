import { z } from 'zod';
import { defineTool, toolSpec } from '../../../src/core/tools/tool-definition';

const input = z.object({
  path: z.string().min(1).describe('A path.'),
  lines: z.array(z.number().int()).max(3).optional(),
});

const tool = (name: string) =>
  defineTool({
    name,
    description: `the ${name} tool`,
    input,
    access: 'read',
    modes: ['chat'],
    classify: () => [],
    run: async () => ({ ok: true, output: '' }),
  });

describe('a tool’s spec (T3: its JSON Schema derived once per input schema)', () => {
  it('T3: the schema is zod’s own (without $schema), the same object for every turn, and frozen', () => {
    const { $schema: _drop, ...expected } = z.toJSONSchema(input) as Record<string, unknown>;
    const first = toolSpec(tool('read_a'));
    const again = toolSpec(tool('read_b'));
    expect(first.inputSchema).toEqual(expected);
    expect(again.inputSchema).toBe(first.inputSchema);
    expect(again.name).toBe('read_b');
    expect(Object.isFrozen(first.inputSchema)).toBe(true);
    const properties = first.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.isFrozen(properties.lines)).toBe(true);
    expect(() => {
      (properties.path as Record<string, unknown>).description = 'changed';
    }).toThrow(TypeError);
  });

  it('T3: another input schema gets its own', () => {
    const other = defineTool({
      name: 'other',
      description: 'another tool',
      input: z.object({ n: z.number() }),
      access: 'read',
      modes: ['chat'],
      classify: () => [],
      run: async () => ({ ok: true, output: '' }),
    });
    expect(toolSpec(other).inputSchema).not.toBe(toolSpec(tool('read_a')).inputSchema);
    expect(toolSpec(other).inputSchema).toMatchObject({ properties: { n: { type: 'number' } } });
  });
});
