/**
 * Numbers as people write them (docs/pages.md, "Reading numbers"): an optional `-` (or the minus
 * sign U+2212) directly before the first digit, then digits that may hold `.`, `,`, spaces (U+0020, U+00A0, U+202F) or
 * apostrophes (`'`, U+2019) between them; whatever surrounds them (currency signs, words) is
 * ignored.
 */

const DIGIT = /\d/;
/** Marks that group thousands only when exactly three digits follow them. */
const SPACES = new Set([' ', '\u00A0', '\u202F', "'", '\u2019']);
const MARKS = new Set(['.', ',']);
const MINUS = new Set(['-', '\u2212']);

/** The first number in `text`, or null when it holds none. */
export function readNumber(text: string): number | null {
  const start = text.search(/\d/);
  if (start < 0) return null;
  const negative = start > 0 && MINUS.has(text[start - 1]);
  const runs: string[] = [];
  const separators: string[] = [];
  let index = start;
  for (;;) {
    const run = digitsAt(text, index);
    runs.push(run);
    index += run.length;
    const separator = text[index];
    const next = digitsAt(text, index + 1);
    if (next === '' || !(MARKS.has(separator) || (SPACES.has(separator) && next.length === 3))) {
      break;
    }
    separators.push(separator);
    index += 1;
  }
  const value = Number(joined(runs, separators));
  if (!Number.isFinite(value)) return null;
  return negative && value !== 0 ? -value : value;
}

/** The digits of `text` from `index` on, up to the first that is not one. */
function digitsAt(text: string, index: number): string {
  let end = index;
  while (end < text.length && DIGIT.test(text[end])) end += 1;
  return text.slice(index, end);
}

/**
 * The number's digits with its decimal mark as `.`: when both `.` and `,` appear, the last of
 * them is the decimal mark; when one appears, it is the decimal mark unless it appears more than
 * once, or once with exactly three digits after it and digits before it that are not all zeros.
 * A decimal mark that appears more than once marks the decimals at its last place only.
 */
function joined(runs: string[], separators: string[]): string {
  const marks = separators.filter((separator) => MARKS.has(separator));
  const decimal = decimalMark(runs, separators, marks);
  const decimalAt = decimal === null ? -1 : separators.lastIndexOf(decimal);
  let digits = runs[0];
  separators.forEach((_separator, index) => {
    digits += (index === decimalAt ? '.' : '') + runs[index + 1];
  });
  return digits;
}

function decimalMark(runs: string[], separators: string[], marks: string[]): string | null {
  if (marks.length === 0) return null;
  const last = marks[marks.length - 1];
  if (marks.some((mark) => mark !== last)) return last;
  if (marks.length > 1) return null;
  const place = separators.indexOf(last);
  const before = runs.slice(0, place + 1).join('');
  const groups = runs[place + 1].length === 3 && /[1-9]/.test(before);
  return groups ? null : last;
}
