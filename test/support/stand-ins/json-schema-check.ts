import Ajv2020 from 'ajv/dist/2020';

const ajv = new Ajv2020({ strict: false });

/**
 * What was found for each schema already checked, by its JSON text. A model client sends the
 * same tools with every request, and compiling a schema costs milliseconds: under a benchmark's
 * load the stand-in spent more CPU compiling tools than the bot under test spent on its turns.
 */
const checked = new Map<string, string | undefined>();
const MOST_REMEMBERED = 1_000;

/**
 * Whether a tool's input schema is a valid JSON Schema (draft 2020-12), as both model APIs
 * require; the problem in words when it is not.
 */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  const key = JSON.stringify(schema);
  if (checked.has(key)) return checked.get(key);
  const problem = compileProblem(schema);
  if (checked.size >= MOST_REMEMBERED) checked.clear();
  checked.set(key, problem);
  return problem;
}

function compileProblem(schema: object): string | undefined {
  if (!ajv.validateSchema(schema)) return ajv.errorsText(ajv.errors);
  try {
    // Compiled to find what validateSchema does not (an unresolvable $ref, a bad pattern), then
    // dropped: ajv would otherwise keep every compiled copy of the same schema.
    ajv.compile(schema);
    ajv.removeSchema(schema);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}
