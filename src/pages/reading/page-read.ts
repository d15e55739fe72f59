import { comparePageText, contentHash, type PageComparison } from './page-comparison';
import { PageErrorForm } from '../page-errors';
import type { PageTarget, PageValueReadings, PageValueTarget } from '../page.types';
import type { PageBody } from '../fetching/page-fetcher';
import { compareItems, type ItemComparison } from '../items/page-items';
import { readPageList } from '../items/page-list';
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
        /** Where the page ended up, which its items' links are resolved against. */
        finalUrl?: string;
        items?: PageTarget['items'];
        /** Of a page with items: the hashes of the keys seen; none for its first good fetch. */
        seenKeys?: string[];
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
      /** Of a page with items: what is new on it; null for other pages. */
      news: Omit<ItemComparison, 'status' | 'added'> | null;
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
    const list = readPageList(answer, request.items, request.finalUrl ?? '', request.values);
    const read = list ?? readPageText(answer, request.selector, request.values);
    if (read.kind === 'error') return read;
    const page = {
      kind: 'text' as const,
      text: read.text,
      title: read.title,
      ...(read.values === undefined ? {} : { values: read.values }),
    };
    if (list?.kind !== 'text' || request.items === undefined) {
      return {
        ...page,
        contentHash: contentHash(read.text),
        news: null,
        ...comparePageText(read.text, request.previousText),
      };
    }
    const { status, added, ...news } = compareItems(
      list.items,
      request.seenKeys ?? null,
      request.previousText !== null,
    );
    return { ...page, contentHash: contentHash(read.text), status, added, removed: [], news };
  } catch {
    return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
  }
}
