/**
 * The fake Claude Code's MCP side, as the real CLI behaves: `--mcp-config` takes JSON files or
 * strings (`{"mcpServers":{"<name>":{"type":"http","url":…}}}`), merged with the project's
 * `.mcp.json` unless `--strict-mcp-config`; at start-up it connects to each server (streamable
 * HTTP: `initialize`, `notifications/initialized`, `tools/list`) and offers its tools as
 * `mcp__<server>__<tool>`. A client of the wire protocol only (plain `fetch`), so it runs in
 * the sandbox with nothing but Node.
 */
const fs = require('node:fs');
const path = require('node:path');

const PROTOCOL_VERSION = '2025-06-18';

/** The servers the CLI would use, or throws the sentence the real CLI fails with. */
function mcpServers(args, cwd) {
  const servers = {};
  const configs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--mcp-config') continue;
    // Variadic, as the real option: every following word up to the next option.
    let j = i + 1;
    for (; j < args.length && !args[j].startsWith('-'); j++) configs.push(args[j]);
    if (j === i + 1) throw new Error("option '--mcp-config <configs...>' argument missing");
  }
  if (!args.includes('--strict-mcp-config') && fs.existsSync(path.join(cwd, '.mcp.json')))
    configs.unshift(path.join(cwd, '.mcp.json'));
  for (const config of configs) {
    const text = config.trim().startsWith('{') ? config : fs.readFileSync(config, 'utf8');
    const parsed = JSON.parse(text);
    if (typeof parsed.mcpServers !== 'object' || parsed.mcpServers === null)
      throw new Error(`Invalid MCP configuration: ${config}: mcpServers: Required`);
    for (const [name, server] of Object.entries(parsed.mcpServers)) {
      if (server.type === 'http' && typeof server.url !== 'string')
        throw new Error(`Invalid MCP configuration: ${config}: mcpServers.${name}.url: Required`);
      servers[name] = server;
    }
  }
  return servers;
}

/** One JSON-RPC exchange over streamable HTTP (a JSON or an SSE answer). */
async function rpc(server, message) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      ...(server.headers ?? {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await response.text();
  if (message.id === undefined) return undefined;
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  const answer = messages.find((m) => m.id === message.id) ?? messages[0];
  if (answer?.error !== undefined) throw new Error(`MCP error ${answer.error.code}: ${answer.error.message}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return answer.result;
}

let nextId = 1;
const request = (server, method, params) => rpc(server, { id: nextId++, method, params });

/** Start-up: each server's tools, or its error (the CLI carries on without that server). */
async function connectAll(servers) {
  const found = {};
  for (const [name, server] of Object.entries(servers)) {
    try {
      await request(server, 'initialize', {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'fake-claude-code', version: '1.0.0' },
      });
      await rpc(server, { method: 'notifications/initialized' });
      const listed = await request(server, 'tools/list', {});
      found[name] = { status: 'connected', tools: listed.tools };
    } catch (error) {
      found[name] = { status: 'failed', error: String(error.message ?? error), tools: [] };
    }
  }
  return found;
}

/** One tool call: the tool result's text and whether it is an error. */
async function callTool(server, tool, input) {
  try {
    const result = await request(server, 'tools/call', { name: tool, arguments: input ?? {} });
    const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
    return { text, isError: result.isError === true };
  } catch (error) {
    return { text: String(error.message ?? error), isError: true };
  }
}

module.exports = { mcpServers, connectAll, callTool };
