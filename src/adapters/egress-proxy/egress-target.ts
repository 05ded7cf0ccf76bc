import { connect, type Socket } from 'node:net';
import type { HostAuthorizer } from '../../core/ports/egress';
import type { Logger } from '../../core/ports/logger';
import { type HostResolver, isPrivateAddress } from './host-resolver';

export interface EgressTarget {
  host: string;
  port: number;
}

export type OpenedTarget = { ok: true; socket: Socket } | { ok: false; status: number; sentence: string };

export interface TargetGate {
  authorizeHost: HostAuthorizer;
  resolve: HostResolver;
  /** X2: never reached, whatever the resolver says (the git gateway, Summon's own ports, the proxy). */
  forbiddenPorts: ReadonlySet<number>;
  log: Logger;
  /** Told each refusal's sentence (for the run's command results). */
  onRefusal?: (sentence: string) => void;
}

/** `host:port` of a CONNECT or the authority of an absolute URI; null when it is not one. */
export function parseTarget(authority: string, defaultPort: number): EgressTarget | null {
  try {
    const url = new URL(`http://${authority}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '') return null;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return { host, port: url.port === '' ? defaultPort : Number(url.port) };
  } catch {
    return null;
  }
}

/**
 * X2, in this order: the run's guardrail for the host (allowed domains, `network` rule, an
 * approval), the proxy's own resolution, no loopback/private address unless the resolver is
 * trusted, never a forbidden port; then the TCP connection. Refusals are sentences (no secrets).
 */
export async function openTarget(
  gate: TargetGate,
  target: EgressTarget,
  signal: AbortSignal,
): Promise<OpenedTarget> {
  const refuse = (code: string, sentence: string): OpenedTarget => {
    gate.log.warn({ host: target.host, port: target.port, refusal: code }, 'egress refused');
    gate.onRefusal?.(sentence);
    return { ok: false, status: 403, sentence };
  };
  const authorization = await gate.authorizeHost(target.host, signal);
  if (!authorization.allowed) return refuse('guardrail', authorization.reason);

  let resolved: Awaited<ReturnType<HostResolver>>;
  try {
    resolved = await gate.resolve(target.host);
  } catch {
    gate.log.warn({ host: target.host, port: target.port, refusal: 'resolve' }, 'egress refused');
    return { ok: false, status: 502, sentence: `Refused: ${target.host} does not resolve.` };
  }
  const address = resolved.addresses[0];
  if (address === undefined) return refuse('resolve', `Refused: ${target.host} does not resolve.`);
  const local = resolved.addresses.some(isPrivateAddress);
  if (local && !resolved.trusted) {
    return refuse(
      'private-address',
      `Refused: ${target.host} resolves to a loopback or private address, which the sandbox never reaches.`,
    );
  }
  if (local && gate.forbiddenPorts.has(target.port)) {
    return refuse(
      'forbidden-port',
      `Refused: port ${target.port} of ${target.host} is not reachable from the sandbox.`,
    );
  }
  return new Promise<OpenedTarget>((resolve) => {
    const socket = connect({ host: address, port: target.port });
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      gate.log.info({ host: target.host, port: target.port }, 'egress connected');
      resolve({ ok: true, socket });
    });
    socket.once('error', () => {
      gate.log.warn({ host: target.host, port: target.port, refusal: 'connect' }, 'egress failed');
      resolve({
        ok: false,
        status: 502,
        sentence: `${target.host}:${target.port} did not accept the connection.`,
      });
    });
  });
}
