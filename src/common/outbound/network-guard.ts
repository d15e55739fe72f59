import { BlockList, isIP } from 'node:net';

/**
 * Addresses a user-given URL (webhooks, chat hooks) must never reach unless private networks
 * are allowed (SSRF guard, contract sections 1 and 2): loopback, private, link-local (cloud
 * metadata lives there), CGNAT, multicast, reserved and unspecified ranges, in IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether the SSRF guard refuses `address` (an IP address; anything else is refused too). An
 * IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d` in any spelling, dotted or
 * hex, compressed or not; IPv4-translated `::ffff:0:a.b.c.d`; the deprecated IPv4-compatible
 * `::a.b.c.d`) is judged by the IPv4 address it carries.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  const words = ipv6Words(bare);
  if (words === null) return true;
  const embedded = embeddedIpv4(words);
  if (embedded !== null) return BLOCKED.check(embedded, 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Words(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : halves[1].split(':');
  const gap = 8 - head.length - tail.length;
  if (halves.length === 1 ? gap !== 0 : gap < 1) return null;
  const words = [...head, ...Array<string>(halves.length === 1 ? 0 : gap).fill('0'), ...tail].map(
    (word) => parseInt(word, 16),
  );
  return words.every((word) => word >= 0 && word <= 0xffff) ? words : null;
}

/** The IPv4 address in `::ffff:0:0/96`, `::ffff:0:0:0/96` or `::/96`, else null. */
function embeddedIpv4(words: number[]): string | null {
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const carries =
    (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) ||
    (zeros(0, 4) && words[4] === 0xffff && words[5] === 0);
  if (!carries) return null;
  const [high, low] = [words[6], words[7]];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class BlockedDestinationError extends Error {
  constructor(host: string) {
    super(`${host} resolves to a private or reserved address`);
    this.name = 'BlockedDestinationError';
  }
}
