import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client as every per-IP limit counts it (docs/api.md, "Rate limits"): an IPv4 address as it
 * is, an IPv6 address by its /64 (`2001:db8:1:2::/64`), since one subscriber usually holds a whole
 * /64 and could otherwise take a fresh address for every request. An IPv4 address written as IPv6
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports) is the IPv4 client.
 */
export function clientNetwork(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (`fe80::1%eth0`) says nothing of the client
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups === null) return address;
  const [a, b, c, d, e, f, g, h] = groups;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) {
    return `${g >> 8}.${g & 0xff}.${h >> 8}.${h & 0xff}`;
  }
  return `${[a, b, c, d].map((group) => group.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad included). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1])) return null;
    const [w, x, y, z] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === null || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === null && missing !== 0)) return null;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups].map((group) =>
    Number.parseInt(group, 16),
  );
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff)
    ? groups
    : null;
}
