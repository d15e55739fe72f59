import { locateJsonObject, type ScanCounter } from './json-object.scanner';

/**
 * The search as it was first written: every `{` in turn, read to its balanced `}` and handed to
 * JSON.parse. Correct, but quadratic; the scanner must find exactly what it finds.
 */
function firstObjectByRescanning(text: string): string | null {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    let end = -1;
    for (let index = start; index < text.length && end === -1; index++) {
      const character = text[index];
      if (inString) {
        if (escaped) escaped = false;
        else if (character === '\\') escaped = true;
        else if (character === '"') inString = false;
      } else if (character === '"') inString = true;
      else if (character === '{') depth++;
      else if (character === '}' && --depth === 0) end = index + 1;
    }
    if (end === -1) continue;
    try {
      const parsed: unknown = JSON.parse(text.slice(start, end));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return text.slice(start, end);
      }
    } catch {
      // not JSON: the next brace
    }
  }
  return null;
}

function located(text: string): string | null {
  const location = locateJsonObject(text);
  return location === null ? null : text.slice(location.start, location.end);
}

/** A small deterministic generator, so a failing text can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const ALPHABET = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  ' ',
  '\\',
  'a',
  'u',
  '0',
  '1',
  '-',
  '.',
  'e',
  't',
  'r',
  'n',
  '\n',
];
const TOKENS = [
  '{',
  '}',
  '"k"',
  '"',
  ':',
  ',',
  '[',
  ']',
  '1',
  '-0.5e+3',
  'true',
  'null',
  '"\\"',
  '"\\u00e9"',
  ' ',
  '\\',
  'x',
  '{"a":',
  '"{"',
];

/** Steps per character that the scan may take: one to read it, at most two parses fed. */
const STEPS_PER_CHARACTER = 3;

function steps(text: string): number {
  const counter: ScanCounter = { steps: 0 };
  locateJsonObject(text, counter);
  return counter.steps;
}

describe('locateJsonObject', () => {
  it('should find what reading every brace to its end finds when the text is random', () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const next = random(seed);
      const pieces = seed % 2 === 0 ? ALPHABET : TOKENS;
      const length = 1 + Math.floor(next() * 24);
      const text = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join(
        '',
      );
      expect({ seed, text, found: located(text) }).toEqual({
        seed,
        text,
        found: firstObjectByRescanning(text),
      });
    }
  });

  it('should find what reading every brace to its end finds when JSON replies are mangled', () => {
    const replies = [
      '{"a":1}',
      '{"k":"{\\"x\\":[1,2,{}]}","n":-1.5e3,"t":true,"f":false,"z":null}',
      '{ "a" : [ { "b" : "c" } , 0.1 ] }',
      '{"u":"\\u00e9\\n"}',
      '[{}]',
    ];
    const characters = '{}[]":, \\aeu01-.+tfn\t\u0001é';
    for (let seed = 1; seed <= 5_000; seed++) {
      const next = random(seed);
      const pick = <T>(items: ArrayLike<T>) => items[Math.floor(next() * items.length)];
      let text = Array.from({ length: 3 }, () =>
        next() < 0.5 ? pick(replies) : pick(characters),
      ).join('');
      for (let edit = 0; edit < 3; edit++) {
        const at = Math.floor(next() * (text.length + 1));
        text =
          next() < 0.5
            ? text.slice(0, at) + pick(characters) + text.slice(at)
            : text.slice(0, at) + text.slice(at + 1);
      }
      expect({ seed, text, found: located(text) }).toEqual({
        seed,
        text,
        found: firstObjectByRescanning(text),
      });
    }
  });

  it('should find the same object when valid JSON, escapes and numbers surround it', () => {
    const texts = [
      'x {"a": [1, -2.5e-3, 0, true, false, null, "\\u00e9\\n\\"{"], "b": {}} y',
      '{"a": 01} {"b": 1.} {"c": -} {"d": 1e} {"e": .5} {"f": 2E+2}',
      '{"a": "tab\there"} {"b": "\\x"} {"c": "\\u12G4"} {"d": [1,]} {"e": {"f": 1,}} {"g": 1}',
      '{"outer": {"inner": 1} oops',
      'say "{"b": 1}" and {"k":"{",":":",":":"}',
      '{"k":"{","k":"}',
      '[{"in": "array"}]',
      '{ "a" : 1 } ',
      '{"a":trux} {"b":nul} {"c":fals} {"d":true}',
    ];
    for (const text of texts)
      expect({ text, found: located(text) }).toEqual({
        text,
        found: firstObjectByRescanning(text),
      });
  });

  it('should return null when the text holds no object', () => {
    expect(locateJsonObject('')).toBeNull();
    expect(locateJsonObject('[1, 2] and {broken')).toBeNull();
  });

  it.each([
    ['200,000 opening braces', '{'.repeat(200_000)],
    ['objects nested 100,000 deep that never close', '{"a":'.repeat(50_000)],
    ['arrays nested 200,000 deep inside one object', `{"a":${'['.repeat(200_000)}`],
    ['braces and quotes', '{"'.repeat(120_000)],
    ['a text that is JSON whichever quote opens a string', `{"k":"{"${',":":"{"'.repeat(40_000)}`],
    [
      'an object in each string of an object that never closes',
      `{"a":${'"{\\"b\\":1}",'.repeat(20_000)}`,
    ],
    ['prose with braces before a late object', `${'{x} '.repeat(60_000)}{"a": 1}`],
    ['open objects with escapes', '{"\\{'.repeat(60_000)],
  ])('should take linear steps when the text is %s', (_label, text) => {
    expect(steps(text)).toBeLessThanOrEqual(STEPS_PER_CHARACTER * text.length);
  });

  it('should take linear steps when the text is random', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      const text = Array.from(
        { length: 20_000 },
        () => TOKENS[Math.floor(next() * TOKENS.length)],
      ).join('');
      expect({ seed, steps: steps(text) }).toEqual({ seed, steps: expect.any(Number) });
      expect(steps(text)).toBeLessThanOrEqual(STEPS_PER_CHARACTER * text.length);
    }
  });
});
