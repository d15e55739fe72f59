/** How deep the API's bodies and MCP's arguments may nest arrays and objects (docs/api.md). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value`'s arrays and objects nest more than `levels` levels (`{}` and `[]` are one
 * level, `[[]]` two), walked without recursion so no depth can overflow the stack.
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, level] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (level > levels) return true;
    for (const child of Object.values(item)) pending.push([child, level + 1]);
  }
  return false;
}
