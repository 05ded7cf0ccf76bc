import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpEndpoint, type McpRunEndpoint } from '../../../src/adapters/mcp-endpoint/mcp-endpoint';
import type { ToolCall, ToolOutcome } from '../../../src/core/ports/turn-tools';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { waitFor } from '../../support/engine-harness';
import { trackerCreateIssue } from '../../support/mcp-tool-definition';
import { pathTool, recordingTools } from '../../support/recording-tools';

/** A real MCP client (the SDK's) on the run's address, as a CLI agent would connect. */
async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'cli-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The tools of a turn with one MCP tool and one built-in tool (which the endpoint must not offer). */
const turnTools = (answer?: (call: ToolCall) => ToolOutcome) =>
  recordingTools([toolSpec(trackerCreateIssue()), pathTool('read_file')], answer);

describe('McpEndpoint: a CLI agent reaches MCP tools only through Summon (E2, E4)', () => {
  let endpoint: McpEndpoint;
  const clients: Client[] = [];
  beforeEach(() => {
    endpoint = new McpEndpoint();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await endpoint.close();
  });
  const open = async (tools: ReturnType<typeof turnTools>, runId = 'run-1') => {
    const run = await endpoint.open({ runId, tools, signal: new AbortController().signal });
    const client = await connect(run.url);
    clients.push(client);
    return { run, client };
  };

  it('E1, E2: tools/list is exactly the turn’s MCP tools, with their schemas; the address is loopback and secret', async () => {
    const tools = turnTools();
    const { run, client } = await open(tools);
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/[A-Za-z0-9_-]{43}$/);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['tracker__create_issue']);
    expect(listed.tools[0]?.description).toBe('Create an issue in the tracker.');
    expect(listed.tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
  });

  it('E4: a call is one TurnTools.call with its arguments, and its outcome is the tool result', async () => {
    const tools = turnTools(() => ({ ok: true, output: 'Created issue #7' }));
    const { client } = await open(tools);
    const result = await client.callTool({
      name: 'tracker__create_issue',
      arguments: { title: 'Flaky test' },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Created issue #7' }]);
    expect(result.isError).toBeUndefined();
    expect(tools.calls).toHaveLength(1);
    expect(tools.calls[0]).toMatchObject({ name: 'tracker__create_issue', input: { title: 'Flaky test' } });
  });

  it('E4: a refusal from the guardrails is the tool result, marked as an error', async () => {
    const tools = turnTools(() => ({ ok: false, output: 'Refused: mcp is denied by a rule of this space.' }));
    const { client } = await open(tools);
    const result = await client.callTool({ name: 'tracker__create_issue', arguments: { title: 'x' } });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Refused: mcp is denied by a rule of this space.' }],
    });
  });

  it('E2, A9: a tool not among the turn’s MCP tools is refused at the endpoint with a sentence and never forwarded', async () => {
    const tools = turnTools();
    const { client } = await open(tools);
    for (const name of ['linear__delete_everything', 'read_file']) {
      const result = await client.callTool({ name, arguments: { path: 'x' } });
      expect(result).toMatchObject({ isError: true });
      expect((result.content as { text: string }[])[0]?.text).toBe(
        `There is no tool named ${name} for this agent in this space, so Summon did not call it. The tools it may use here: tracker__create_issue.`,
      );
    }
    expect(tools.calls).toEqual([]);
  });

  it('E2: another run’s address reaches only that run’s tools; a made-up address is refused', async () => {
    const mine = turnTools(() => ({ ok: true, output: 'mine' }));
    const theirs = recordingTools([{ ...toolSpec(trackerCreateIssue()), name: 'other__tool' }]);
    const { run } = await open(mine, 'run-1');
    const { client: theirClient } = await open(theirs, 'run-2');
    expect((await theirClient.listTools()).tools.map((t) => t.name)).toEqual(['other__tool']);
    const guessed = run.url.replace(/\/mcp\/.*$/, '/mcp/not-a-run');
    await expect(connect(guessed)).rejects.toThrow(/This MCP endpoint is not open/);
    await expect(connect(run.url.replace(/\/mcp\/.*$/, '/'))).rejects.toThrow(/not open/);
    expect(mine.calls).toEqual([]);
  });

  it('E2: once the run ends its address is refused, while another run’s still works', async () => {
    const { run, client } = await open(turnTools(), 'run-1');
    const { client: other } = await open(turnTools(), 'run-2');
    await run.close();
    await expect(client.listTools()).rejects.toThrow(/This MCP endpoint is not open: its run has ended/);
    await expect(connect(run.url)).rejects.toThrow(/not open/);
    expect((await other.listTools()).tools).toHaveLength(1);
  });

  it('E4, A12: a call waiting (an approval) counts as pending; the run’s end ends it with a sentence', async () => {
    let started: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tools = recordingTools([toolSpec(trackerCreateIssue())]);
    const abort = new AbortController();
    tools.call = (_call, signal) => {
      started();
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ ok: false, output: 'never' }), { once: true }),
      );
    };
    const run: McpRunEndpoint = await endpoint.open({ runId: 'run-1', tools, signal: abort.signal });
    const client = await connect(run.url);
    clients.push(client);
    const call = client.callTool({ name: 'tracker__create_issue', arguments: { title: 'x' } });
    await waiting;
    expect(run.pending).toBe(1);
    abort.abort();
    await expect(call).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The run was stopped.' }],
    });
    expect(run.pending).toBe(0);
  });

  it('E2: the server is started for the first run and stopped after the last', async () => {
    const first = await endpoint.open({
      runId: 'a',
      tools: turnTools(),
      signal: new AbortController().signal,
    });
    const second = await endpoint.open({
      runId: 'b',
      tools: turnTools(),
      signal: new AbortController().signal,
    });
    expect(second.port).toBe(first.port);
    await first.close();
    await second.close();
    await expect(fetch(first.url, { method: 'POST' })).rejects.toThrow();
    const third = await endpoint.open({
      runId: 'c',
      tools: turnTools(),
      signal: new AbortController().signal,
    });
    const client = await connect(third.url);
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it('E4: an agent that hangs up ends its call: the call’s signal aborts, so a pending approval makes nothing', async () => {
    let aborted: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    let started: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tools = recordingTools([toolSpec(trackerCreateIssue())]);
    tools.call = (_call, signal) => {
      started();
      signal.addEventListener('abort', () => aborted(), { once: true });
      return new Promise(() => undefined); // an approval nobody decides
    };
    const run = await endpoint.open({ runId: 'run-1', tools, signal: new AbortController().signal });
    const hangUp = new AbortController();
    const call = fetch(run.url, {
      method: 'POST',
      signal: hangUp.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'tracker__create_issue', arguments: { title: 'x' } },
      }),
    }).then((response) => response.text());
    await waiting;
    hangUp.abort();
    await expect(call).rejects.toThrow();
    await ended;
    await waitFor(async () => run.pending === 0);
  });
});
