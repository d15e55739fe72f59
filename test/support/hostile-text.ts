/**
 * Texts built to make a backtracking regular expression rescan them from every position: long
 * runs of the characters that the shapes of secrets start with, that never complete a shape.
 * Each is `length` characters long; the log's masking must stay linear on all of them.
 */
export function hostileTexts(length: number): Record<string, string> {
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return {
    'a run of address characters without an address': fill('a'),
    'dotted words, each a word boundary': fill('a.'),
    'dashed JWT starts': fill('eyJa-'),
    'address signs with no domain': fill('a@'),
    'encoded address signs with no domain': fill('a%40'),
    'URL schemes without credentials': fill('a+b.'),
    'a path of dotted segments': `/${fill('x.y/')}`,
  };
}
