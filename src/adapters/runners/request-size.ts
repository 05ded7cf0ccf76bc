/**
 * A4: the length of a model request's JSON body (what `JSON.stringify` would give), without
 * serializing the tools' input schemas on every call. A turn's estimate and the SDK's own
 * serialization would otherwise write the whole body twice a round, the schemas being most of
 * it; a frozen schema (every built-in tool's, derived once) never changes, so its length is kept.
 */
const schemaLengths = new WeakMap<object, number>();

const SCHEMA_KEY = '"input_schema":'.length;
const TOOLS_KEY = '"tools":[]'.length;

/** The JSON length of `body`, whose optional `tools` carry `input_schema`s. */
export function jsonBodyLength(body: { tools?: readonly object[] | undefined }): number {
  const { tools, ...rest } = body;
  if (tools === undefined) return JSON.stringify(rest).length;
  let length = withKey(JSON.stringify(rest).length, TOOLS_KEY) + Math.max(0, tools.length - 1);
  for (const tool of tools) length += toolLength(tool);
  return length;
}

function toolLength(tool: object): number {
  const { input_schema: schema, ...rest } = tool as { input_schema?: unknown };
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(tool).length;
  return withKey(JSON.stringify(rest).length, SCHEMA_KEY) + schemaLength(schema);
}

function schemaLength(schema: object): number {
  const known = schemaLengths.get(schema);
  if (known !== undefined) return known;
  const length = JSON.stringify(schema).length;
  // Only a frozen schema is known not to change between calls (an MCP server's may be rebuilt).
  if (Object.isFrozen(schema)) schemaLengths.set(schema, length);
  return length;
}

/** `{…}` (of `objectLength`) with one more key of `keyLength` (its value's length added apart). */
const withKey = (objectLength: number, keyLength: number) =>
  objectLength + keyLength + (objectLength > 2 ? 1 : 0);
