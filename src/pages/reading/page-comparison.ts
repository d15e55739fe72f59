import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import type { PageBody } from '../fetching/page-fetcher';
import { cutText } from './text-bounds';
import type { PageStatus, PageValueTarget } from '../page.types';

/** Lines of each kind kept per page and check, in document order. */
export const MAX_DIFF_LINES = 50;
export const MAX_DIFF_LINE_CHARS = 500;
/**
 * Past this many edits, or this long, the line diff gives way to comparing the two texts' lines
 * as multisets, so that `added` and `removed` of any two texts cost at most 200 ms of CPU
 * (docs/pages.md, "Page results"): each edit the diff tries costs more than the one before.
 */
const MAX_EDIT_LENGTH = 1_000;
const DIFF_TIMEOUT_MS = 100;

export interface PageComparison {
  status: Exclude<PageStatus, 'error'>;
  added: string[];
  removed: string[];
}

/** Hex SHA-256 of a page's text. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Hex SHA-256 of what a page's text and values are read from: the body as it came, its media
 * type and charset, the selector, the items read and the values declared. An equal hash is the
 * same text and values, known without reading them again.
 */
export function bodyHash(
  answer: PageBody,
  selector: string | undefined,
  items?: { selector?: string },
  values?: readonly PageValueTarget[],
): string {
  // Pages without items or values hash as they did before pages had them.
  const reading: unknown[] = [answer.contentType, answer.charset ?? null, selector ?? null];
  if (items !== undefined) reading.push(items);
  if (values !== undefined) reading.push(JSON.stringify(values));
  return createHash('sha256').update(JSON.stringify(reading)).update(answer.body).digest('hex');
}

/**
 * A good fetch's text against the last good one's (docs/pages.md, "Page statuses"): `new`
 * without one, `same` when equal, else `changed` with the lines that appeared and went away.
 */
export function comparePageText(text: string, previous: string | null): PageComparison {
  if (previous === null) return { status: 'new', added: [], removed: [] };
  if (previous === text) return { status: 'same', added: [], removed: [] };
  const { added, removed } = changedLines(previous, text);
  return { status: 'changed', added: kept(added), removed: kept(removed) };
}

/**
 * The lines both texts start and end with are set aside first, in one pass over each, so that the
 * line diff reads only the part between them: a page with a line changed costs the diff those
 * few lines, not the whole page's. Leaving equal ends out changes no edit counted.
 */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const beforeLines = before.split('\n');
  const afterLines = after.split('\n');
  let start = 0;
  while (
    start < beforeLines.length &&
    start < afterLines.length &&
    beforeLines[start] === afterLines[start]
  ) {
    start += 1;
  }
  let end = 0;
  while (
    end < beforeLines.length - start &&
    end < afterLines.length - start &&
    beforeLines[beforeLines.length - 1 - end] === afterLines[afterLines.length - 1 - end]
  ) {
    end += 1;
  }
  const removedSpan = beforeLines.slice(start, beforeLines.length - end);
  const addedSpan = afterLines.slice(start, afterLines.length - end);
  if (removedSpan.length === 0 || addedSpan.length === 0) {
    return { added: addedSpan, removed: removedSpan };
  }
  // A final newline on both, so a last line that gains a successor is not a change of its own.
  const parts = diffLines(`${removedSpan.join('\n')}\n`, `${addedSpan.join('\n')}\n`, {
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (parts === undefined) return setDifference(removedSpan, addedSpan);
  const added: string[] = [];
  const removed: string[] = [];
  for (const part of parts) {
    if (!part.added && !part.removed) continue;
    const lines = part.value.replace(/\n$/, '').split('\n');
    (part.added ? added : removed).push(...lines);
  }
  return { added, removed };
}

/**
 * Lines of `after` not in `before` and the reverse, counted as multisets, in document order:
 * one pass over each text and a map of line counts, linear in the texts' length.
 */
function setDifference(before: string[], after: string[]): { added: string[]; removed: string[] } {
  const only = (lines: string[], others: string[]): string[] => {
    const counts = new Map<string, number>();
    for (const line of others) counts.set(line, (counts.get(line) ?? 0) + 1);
    return lines.filter((line) => {
      const left = counts.get(line) ?? 0;
      counts.set(line, left - 1);
      return left <= 0;
    });
  };
  return { added: only(after, before), removed: only(before, after) };
}

function kept(lines: string[]): string[] {
  return lines.slice(0, MAX_DIFF_LINES).map((line) => cutText(line, MAX_DIFF_LINE_CHARS));
}
