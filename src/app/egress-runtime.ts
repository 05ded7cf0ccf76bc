import { RunEgressProxies } from '../adapters/egress-proxy/run-egress-proxies';
import type { Config } from '../config/config';
import type { Logger } from '../core/ports/logger';

/**
 * X2: the runs' egress proxies when agents' commands are sandboxed (no network of their own);
 * none with `SUMMON_SANDBOX=off`, where commands have the host's network and the `network`
 * rule is applied to their command text instead.
 */
export function createEgressProxies(config: Config, logger: Logger): RunEgressProxies | null {
  if (config.sandbox.mode === 'off') return null;
  return new RunEgressProxies({ logger, forbiddenPorts: summonPorts(config) });
}

/** Summon's own ports (its HTTP server and git gateway, its database, Redis): never proxied to. */
export function summonPorts(config: Config): number[] {
  const ports = new Set<number>([config.port]);
  for (const raw of [config.github.gatewayUrl, config.databaseUrl, config.redisUrl]) {
    if (raw === undefined) continue;
    try {
      const url = new URL(raw);
      const fallback = { 'http:': 80, 'https:': 443, 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379 }[
        url.protocol
      ];
      const port = url.port === '' ? fallback : Number(url.port);
      if (port !== undefined) ports.add(port);
    } catch {
      // not a URL: nothing to add
    }
  }
  return [...ports];
}
