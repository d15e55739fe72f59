import { isWellFormedUsername, RESERVED_USERNAMES } from './username.rules';

describe('isWellFormedUsername', () => {
  it.each(['abc', 'a-b', 'a_b', 'a12', 'z'.repeat(30), 'x9-_'])(
    'should accept %j when it follows the rules',
    (name) => {
      expect(isWellFormedUsername(name)).toBe(true);
    },
  );

  it.each(['ab', 'a'.repeat(31), 'Abc', 'aBc', '1abc', '-abc', '_abc', 'a b', 'a.b', 'abé', ''])(
    'should reject %j when it breaks a rule',
    (name) => {
      expect(isWellFormedUsername(name)).toBe(false);
    },
  );
});

describe('RESERVED_USERNAMES', () => {
  it('should only hold names that are otherwise well formed, so each entry can matter', () => {
    for (const name of RESERVED_USERNAMES) expect(isWellFormedUsername(name)).toBe(true);
  });
});
