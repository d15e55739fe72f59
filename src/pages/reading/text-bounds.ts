/**
 * Bounds of what is read from a page, and what makes it storable; a leaf that imports nothing of
 * ours.
 */

/**
 * JSON nested deeper than this is `too complex`: V8 serialises JSON by recursion, which a few
 * thousand levels take past the stack.
 */
export const MAX_JSON_DEPTH = 1_000;

/** At most `maxChars` characters of `text`, never ending in half a surrogate pair. */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const end = /[\uD800-\uDBFF]/.test(text[maxChars - 1]) ? maxChars - 1 : maxChars;
  return text.slice(0, end);
}

/**
 * `text` with U+0000 as U+FFFD: PostgreSQL's text and JSON refuse NUL, and whatever a page reads
 * (its text, title, values, items) is stored (docs/pages.md, "Reading the text").
 */
export function storable(text: string): string {
  return text.replaceAll('\0', '\uFFFD');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENING = new Set([0x5b, 0x7b]); // [ {
const CLOSING = new Set([0x5d, 0x7d]); // ] }

/** Whether `source` nests arrays and objects deeper than MAX_JSON_DEPTH, strings aside. */
export function nestsTooDeep(source: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (OPENING.has(code)) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return true;
    } else if (CLOSING.has(code)) {
      depth -= 1;
    }
  }
  return false;
}
