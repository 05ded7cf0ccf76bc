import fc from 'fast-check';
import { jsonBodyLength } from '../../../src/adapters/runners/request-size';

const json = fc.jsonValue() as fc.Arbitrary<unknown>;
const record = fc.dictionary(fc.string(), json);
const tool = fc.record(
  {
    name: fc.string(),
    description: fc.option(fc.string(), { nil: undefined }),
    input_schema: fc.oneof(
      record.map((schema) => Object.freeze(schema)),
      record,
    ),
    cache_control: fc.constant({ type: 'ephemeral' }),
  },
  { requiredKeys: ['name'] },
);
const body = fc.record(
  { model: fc.string(), max_tokens: fc.nat(), messages: fc.array(json), tools: fc.array(tool) },
  { requiredKeys: [] },
);

describe('A4: a request body’s JSON length without serializing its tools’ schemas each time', () => {
  it('A4: is the length JSON.stringify gives, for any body, tools or none, schemas frozen or not', () => {
    fc.assert(
      fc.property(body, (b) => {
        expect(jsonBodyLength(b)).toBe(JSON.stringify(b).length);
      }),
      { numRuns: 500 },
    );
  });

  it('A4: a frozen schema is serialized once, however many requests carry it', () => {
    let serialized = 0;
    const schema = Object.freeze({
      type: 'object',
      toJSON() {
        serialized += 1;
        return { type: 'object', properties: { command: { type: 'string' } } };
      },
    });
    const request = (text: string) => ({
      model: 'claude',
      messages: [{ role: 'user', content: text }],
      tools: [{ name: 'bash', description: 'Runs a command.', input_schema: schema }],
    });
    const lengths = ['one', 'two', 'three'].map((text) => jsonBodyLength(request(text)));
    expect(serialized).toBe(1);
    const expected = ['one', 'two', 'three'].map((text) => JSON.stringify(request(text)).length);
    expect(lengths).toEqual(expected);
  });
});
