import { BlockList, isIP } from 'node:net';
import { CodedError } from '../errors/coded-error';
import { OutboundErrorCode } from './outbound-error-code';

/**
 * Addresses a user-given URL (webhooks, chat hooks) must never reach unless private networks
 * are allowed (SSRF guard, docs/api.md, "Notifications"): loopback, private, link-local (cloud
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
 * IPv6 address that carries or stands for an IPv4 one is refused when that IPv4 address would
 * be: IPv4-compatible `::/96`, IPv4-mapped `::ffff:0:0/96` in any spelling
 * (dotted or hex, compressed or not), IPv4-translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`
 * and `64:ff9b:1::/48`, 6to4 `2002::/16` and Teredo `2001::/32`.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  const words = ipv6Words(bare);
  if (words === null) return true;
  if (embeddedIpv4(words).some((embedded) => BLOCKED.check(embedded, 'ipv4'))) return true;
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

/**
 * The IPv4 addresses an IPv6 address carries or is translated to (none for a plain IPv6
 * address). Teredo gives two: its server (bits 32-63) and its client (the last 32 bits, inverted).
 */
function embeddedIpv4(words: number[]): string[] {
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const last = dotted(words[6], words[7]);
  // ::/96 (IPv4-compatible, `::` and `::1` included), ::ffff:0:0/96 (mapped).
  if (zeros(0, 5) && (words[5] === 0 || words[5] === 0xffff)) return [last];
  // ::ffff:0:0:0/96 (IPv4-translated, RFC 2765).
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return [last];
  // 64:ff9b::/96 (NAT64, RFC 6052) and 64:ff9b:1::/48 (local-use NAT64, RFC 8215).
  if (words[0] === 0x64 && words[1] === 0xff9b && (zeros(2, 6) || words[2] === 1)) return [last];
  // 2002::/16 (6to4, RFC 3056): the IPv4 address in bits 16-47.
  if (words[0] === 0x2002) return [dotted(words[1], words[2])];
  // 2001::/32 (Teredo, RFC 4380): the server, and the client XOR 0xffffffff.
  if (words[0] === 0x2001 && words[1] === 0) {
    return [dotted(words[2], words[3]), dotted(~words[6] & 0xffff, ~words[7] & 0xffff)];
  }
  return [];
}

/** Two 16-bit words as a dotted IPv4 address. */
function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Ends every refusal's reason a user reads (a 400 on a saved URL, a failed send), so whoever
 * watches a page or a hook on their own network learns the switch that allows it.
 */
const ALLOW_PRIVATE_HINT =
  '(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them)';

export class BlockedDestinationError extends CodedError<OutboundErrorCode.BLOCKED> {
  constructor(host: string) {
    super(
      `${host} resolves to a private or reserved address ${ALLOW_PRIVATE_HINT}`,
      OutboundErrorCode.BLOCKED,
    );
  }
}
