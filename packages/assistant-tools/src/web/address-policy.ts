import { BlockList, isIP } from 'node:net';

/**
 * Which addresses web_fetch may connect to. Loopback, private, link-local, carrier-grade NAT,
 * multicast and reserved ranges are refused — they reach the user's own machine or network,
 * not the public web — unless the host is listed in `webFetch.allowHosts`.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`), if it is one. */
function mappedIPv4(address: string): string | undefined {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1];
}

/** True when `address` (an IP literal) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const v4 = mappedIPv4(address);
  if (v4) return isPublicAddress(v4);
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A host name as URL parsing gives it, without IPv6 brackets, lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

export function hostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  const host = bareHost(hostname);
  return allowHosts.some((h) => bareHost(h) === host);
}

export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} resolves to ${address}, a loopback, private or link-local address; web_fetch only reaches the public web. ` +
        `To allow this host, add it to webFetch.allowHosts in config.json.`,
    );
    this.name = 'BlockedAddressError';
  }
}
