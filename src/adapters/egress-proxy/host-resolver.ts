import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Where a host name leads. `trusted`: a test's map may lead to loopback; real DNS never may. */
export interface ResolvedHost {
  addresses: readonly string[];
  trusted: boolean;
}

/** X2: the proxy resolves names itself (injected so tests can map a test domain to 127.0.0.1). */
export type HostResolver = (host: string) => Promise<ResolvedHost>;

/** The system resolver: every address of the name; never trusted with private addresses. */
export const systemResolver: HostResolver = async (host) => ({
  addresses: (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address),
  trusted: false,
});

/**
 * For tests and benchmarks: names mapped to loopback addresses, trusted. Any other name does
 * not resolve, so nothing leaves the machine.
 */
export const mappedResolver =
  (map: Readonly<Record<string, string>>): HostResolver =>
  async (host) => {
    const address = map[host.toLowerCase()];
    if (address === undefined) throw new Error(`${host} does not resolve here`);
    return { addresses: [address], trusted: true };
  };

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** X2: loopback, private, link-local, multicast or unspecified (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isPrivateAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
