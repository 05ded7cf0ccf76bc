/**
 * A4, A14: a Messages request's JSON body, written once a call: the runner hands the SDK this
 * string (sent as it is) and estimates the request from its length. The tools are most of the
 * bytes and the same in every call of a workspace: a frozen tool (`anthropicTools`' for a tool
 * whose schema `toolSpec` derived and froze, T3) is written once and its JSON kept.
 */
const written = new WeakMap<object, string>();

/** `body` as `JSON.stringify` writes it, but with `tools` last (the key order is not the API's concern). */
export function requestJson(body: { tools?: readonly object[] | undefined }): string {
  const { tools, ...rest } = body;
  const head = JSON.stringify(rest);
  if (tools === undefined) return head;
  const list = `[${tools.map(toolJson).join(',')}]`;
  return head === '{}' ? `{"tools":${list}}` : `${head.slice(0, -1)},"tools":${list}}`;
}

function toolJson(tool: object): string {
  const known = written.get(tool);
  if (known !== undefined) return known;
  const json = JSON.stringify(tool);
  // Only a frozen tool is known not to change between calls (an MCP server's is built afresh).
  if (Object.isFrozen(tool)) written.set(tool, json);
  return json;
}
