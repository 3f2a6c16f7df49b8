import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Whether an address is this machine: loopback (127.0.0.0/8, ::1), the unspecified address
 * (0.0.0.0, ::, which connect to the host itself), or an address of one of its interfaces. A
 * server listening on 0.0.0.0 answers on every one of them.
 */
export function isLocalAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (a === '::1' || a === '::' || a === '0.0.0.0' || a.startsWith('127.') || a === '0:0:0:0:0:0:0:1') return true;
  if (a.startsWith('0.')) return true;
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) if (info.address.toLowerCase() === a) return true;
  }
  return false;
}

/** A host name that means this machine before any lookup: `localhost`, `*.localhost`, or a local address literal. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  return isIP(h) !== 0 && isLocalAddress(h);
}
