import { DEFAULT_OLLAMA_URL, type ModelConfig } from '../../config/config';
import { findProgram } from '../sandbox/find-program';

/** The Claude Code command line discovery runs for agents without an adapter (A9: through the command runner). */
export const CLAUDE_CLI_COMMAND =
  'claude -p --output-format stream-json --verbose --dangerously-skip-permissions';

/** A10: what agents without an adapter run on, as discovery found it. */
export type DiscoveredModel =
  | { kind: 'anthropic'; model: string }
  | { kind: 'openai'; baseUrl: string; model: string | undefined }
  | { kind: 'ollama'; url: string; model: string }
  | { kind: 'claude-cli'; program: string }
  | { kind: 'none' };

export interface DiscoveryOptions {
  /** How long one probe (Ollama's tags, a server's model list) may take; default 1.5 s. */
  timeoutMs?: number;
}

/**
 * A10: with no model configured for an agent, Summon looks, in order, for ANTHROPIC_API_KEY,
 * OPENAI_BASE_URL, a local Ollama with a model pulled (SUMMON_OLLAMA_URL, default
 * 127.0.0.1:11434) and a `claude` CLI on PATH, and the first found serves every agent
 * without an adapter.
 */
export async function discoverModel(
  models: ModelConfig,
  options: DiscoveryOptions = {},
): Promise<DiscoveredModel> {
  const timeoutMs = options.timeoutMs ?? 1500;
  if (models.anthropicApiKey !== undefined) return { kind: 'anthropic', model: models.defaultModel };
  if (models.openaiBaseUrl !== undefined) {
    const listed = await getJson(
      `${models.openaiBaseUrl.replace(/\/+$/, '')}/models`,
      timeoutMs,
      models.openaiApiKey,
    );
    const first = firstOf(listed, 'data', 'id');
    return { kind: 'openai', baseUrl: models.openaiBaseUrl, model: models.chosenModel ?? first };
  }
  const ollama = models.ollamaUrl ?? DEFAULT_OLLAMA_URL;
  const pulled = firstOf(await getJson(`${ollama}/api/tags`, timeoutMs), 'models', 'name');
  if (pulled !== undefined) return { kind: 'ollama', url: ollama, model: models.chosenModel ?? pulled };
  const program = findProgram('claude', models.searchPath ?? '', { pathOnly: true });
  if (program !== undefined) return { kind: 'claude-cli', program };
  return { kind: 'none' };
}

/** A10: the local chat's first line: which model, and how to change it (or how to get one). */
export function describeDiscovery(found: DiscoveredModel): string {
  const change =
    'Change it with SUMMON_DEFAULT_MODEL, or give an agent its own `adapter` and `model` in the workspace file.';
  switch (found.kind) {
    case 'anthropic':
      return `Model: ${found.model} through the Anthropic API (ANTHROPIC_API_KEY). ${change}`;
    case 'openai':
      return found.model === undefined
        ? `Model: none chosen on the OpenAI-compatible server at ${found.baseUrl} (OPENAI_BASE_URL): set SUMMON_DEFAULT_MODEL to one of its models.`
        : `Model: ${found.model} on the OpenAI-compatible server at ${found.baseUrl} (OPENAI_BASE_URL). ${change}`;
    case 'ollama':
      return `Model: ${found.model} on the local Ollama at ${found.url} (found running). ${change} Set ANTHROPIC_API_KEY or OPENAI_BASE_URL to use another server.`;
    case 'claude-cli':
      return `Model: Claude Code (the claude CLI at ${found.program}, through the command runner). Set ANTHROPIC_API_KEY or OPENAI_BASE_URL, or run Ollama, to use a model directly; or give an agent its own \`adapter\` in the workspace file.`;
    case 'none':
      return (
        'No model found: agents cannot answer yet. Fix it one of these ways, then start the chat again: ' +
        'set ANTHROPIC_API_KEY (Anthropic); set OPENAI_BASE_URL to an OpenAI-compatible server (and SUMMON_DEFAULT_MODEL to its model); ' +
        'run Ollama on 127.0.0.1:11434 with a model pulled (`ollama pull llama3.2`); or install and log in to Claude Code (`claude` on PATH).'
      );
  }
}

/** GET a JSON document; undefined on any failure (nothing listening, timeout, not JSON). */
async function getJson(url: string, timeoutMs: number, apiKey?: string): Promise<unknown> {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } }),
    });
    if (!response.ok) return undefined;
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** `document[list][0][field]` when it is a non-empty string. */
function firstOf(document: unknown, list: string, field: string): string | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const items = (document as Record<string, unknown>)[list];
  if (!Array.isArray(items)) return undefined;
  const first: unknown = items[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const value = (first as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
