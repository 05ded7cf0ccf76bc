import type { RunEgress } from '../../core/ports/egress';
import type { SandboxForward } from '../sandbox/sandbox-policy';
import { type SandboxEgress, sandboxEgress } from './sandbox-egress';

/** Claude Code's model API when no base URL is given. */
export const DEFAULT_CLI_MODEL_HOST = 'api.anthropic.com';

/** The model API variables a CLI agent may be given (through `SUMMON_AGENT_ENV_*`). */
const BASE_URL_VARIABLES = ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL'] as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export interface ModelEndpoints {
  /** Reached through the run's proxy, always allowed for the run. */
  hosts: string[];
  /** A model server on the host's loopback (a local proxy or model): forwarded as is, direct. */
  forwards: SandboxForward[];
}

/**
 * X2, A9: where a CLI agent's model API is: `api.anthropic.com` unless `ANTHROPIC_BASE_URL`
 * says otherwise, and the host of `OPENAI_BASE_URL` when given. Pure.
 */
export function modelEndpoints(env: Readonly<Record<string, string | undefined>>): ModelEndpoints {
  const endpoints: ModelEndpoints = { hosts: [], forwards: [] };
  if (env.ANTHROPIC_BASE_URL === undefined || env.ANTHROPIC_BASE_URL === '')
    endpoints.hosts.push(DEFAULT_CLI_MODEL_HOST);
  for (const name of BASE_URL_VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (LOOPBACK.has(host)) {
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      endpoints.forwards.push({ port, target: { host: host === 'localhost' ? '127.0.0.1' : host, port } });
    } else if (!endpoints.hosts.includes(host)) endpoints.hosts.push(host);
  }
  return endpoints;
}

/**
 * X2: a CLI agent's sandbox egress: the run's proxy as for `bash`, with the agent's model API
 * always reachable for the run (never an approval card for the agent's own model), and a model
 * server on loopback forwarded directly.
 */
export async function cliAgentEgress(
  egress: RunEgress | undefined,
  agentEnv: Readonly<Record<string, string | undefined>>,
): Promise<SandboxEgress> {
  const endpoints = modelEndpoints(agentEnv);
  if (egress !== undefined) for (const host of endpoints.hosts) egress.alwaysAllow(host);
  const base = await sandboxEgress(egress);
  return { forwards: [...base.forwards, ...endpoints.forwards], env: base.env };
}
