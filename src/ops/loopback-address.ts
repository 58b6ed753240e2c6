import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Whether a server bound to `address` (as `server.address()` reports it, or a host name)
 * can be reached from this machine only: 127.0.0.0/8, `::1`, an IPv4-mapped 127.x, or
 * `localhost`. Any other name, and the wildcards `0.0.0.0` and `::`, are not.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)?.[1];
  if (mapped !== undefined) return loopback.check(mapped, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return loopback.check(bare, 'ipv4');
  if (family === 6) return loopback.check(bare, 'ipv6');
  return bare.toLowerCase() === 'localhost';
}
