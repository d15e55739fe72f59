import { comparePageText, contentHash, type PageComparison } from './page-comparison';
import { PageErrorForm } from '../page-errors';
import type { PageValueReadings, PageValueTarget } from '../page.types';
import type { PageBody } from '../fetching/page-fetcher';
import { isBotCheckAnswer, readPageText } from './page-text';

/**
 * What reading a body needs besides its bytes (docs/pages.md, "Reading off the event loop"): a
 * page's type, charset and selector and the last good text to compare it with; or an error
 * answer's type and charset, to tell a bot check from the fetch's own `error`.
 */
export type PageReadRequest = Omit<PageBody, 'body'> &
  (
    | {
        kind: 'page';
        selector?: string;
        values?: PageValueTarget[];
        previousText: string | null;
      }
    | { kind: 'error answer'; error: string }
  );

/** A page's text read and compared, or the short fixed form of why it has none. */
export type PageRead =
  | ({
      kind: 'text';
      text: string;
      title: string | null;
      contentHash: string;
      values?: PageValueReadings;
    } & PageComparison)
  | { kind: 'error'; error: string };

/**
 * Reads a body as a check does. Whatever it holds, this ends in a result: a page the reading
 * cannot get through (a stack or a string past V8's limits, a parser's own limit) is
 * `too complex`, never an exception that would fail the check and the other pages with it.
 */
export function readPage(request: PageReadRequest, body: Buffer): PageRead {
  const answer = { contentType: request.contentType, charset: request.charset, body };
  try {
    if (request.kind === 'error answer') {
      const botCheck = isBotCheckAnswer(answer);
      return { kind: 'error', error: botCheck ? PageErrorForm.BOT_CHECK : request.error };
    }
    const read = readPageText(answer, request.selector, request.values);
    if (read.kind === 'error') return read;
    return {
      kind: 'text',
      text: read.text,
      title: read.title,
      ...(read.values === undefined ? {} : { values: read.values }),
      contentHash: contentHash(read.text),
      ...comparePageText(read.text, request.previousText),
    };
  } catch {
    return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
  }
}
