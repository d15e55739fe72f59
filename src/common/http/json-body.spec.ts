import { nestsDeeperThan } from './json-body';

const text = (json: string) => Buffer.from(json, 'utf8');

describe('nestsDeeperThan', () => {
  it('should count arrays and objects alike when they nest inside one another', () => {
    expect(nestsDeeperThan(text('{"a":[{"b":[]}]}'), 4)).toBe(false);
    expect(nestsDeeperThan(text('{"a":[{"b":[[]]}]}'), 4)).toBe(true);
  });

  it('should count depth, not the number of arrays, when they stand side by side', () => {
    expect(nestsDeeperThan(text(`[${'[],'.repeat(100)}[]]`), 2)).toBe(false);
  });

  it('should ignore brackets inside strings when quotes and backslashes are escaped', () => {
    expect(nestsDeeperThan(text('["[[[[", "\\"[[[[", "\\\\", "{{é{{"]'), 1)).toBe(false);
    expect(nestsDeeperThan(text('["\\\\", [[]]]'), 2)).toBe(true);
  });
});
