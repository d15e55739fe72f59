import { nestsDeeperThan } from './json-depth';

/** `levels` arrays, one inside the other, around a string. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('should count each array and object as one level when they nest', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan({ a: [], b: { c: [[]] } }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [], b: { c: [[]] } }, 3)).toBe(true);
  });

  it('should find no level in a scalar or null', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
  });

  it('should walk a value nested far past the stack without overflowing it', () => {
    expect(nestsDeeperThan(nested(200_000), 64)).toBe(true);
  });
});
