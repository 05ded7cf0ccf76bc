import Ajv2020 from 'ajv/dist/2020';

const ajv = new Ajv2020({ strict: false });

/**
 * Whether a tool's input schema is a valid JSON Schema (draft 2020-12), as both model APIs
 * require; the problem in words when it is not.
 */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  if (!ajv.validateSchema(schema as object)) return ajv.errorsText(ajv.errors);
  try {
    ajv.compile(schema as object);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}
