import type { GroundingSource, PromptPage } from '../../search/search.types';
import { pageResultLine, pageTextForPrompt } from './page-result-line';
import type { PageResult } from '../page.types';

type ReadPage = PageResult & { status: PromptPage['status']; text: string };

function isRead(result: PageResult): result is ReadPage {
  return result.status !== 'error' && result.text !== null;
}

/** The page's address after redirects. */
function shownUrl(result: PageResult): string {
  return result.finalUrl ?? result.url;
}

/**
 * The pages a model reads (docs/pages.md, "The model call"): every page that is not an error, in
 * the task's order, its text cut to `maxChars`; a page with items gives its new items instead of
 * its text ("Items and feeds").
 */
export function promptPages(results: readonly PageResult[], maxChars: number): PromptPage[] {
  return results.filter(isRead).map((result) => {
    const page = {
      url: shownUrl(result),
      status: result.status,
      title: result.title,
      ...(result.values === undefined ? {} : { values: pageResultLine(result).values ?? {} }),
    };
    if (result.newItems !== null) {
      return { ...page, text: '', added: [], removed: [], newItems: result.newItems };
    }
    return {
      ...page,
      text: pageTextForPrompt(result.text, maxChars),
      added: result.added,
      removed: result.removed,
    };
  });
}

/** The sources of a verdict on pages: each page read, titled by its `<title>` or else its host. */
export function pageSources(results: readonly PageResult[]): GroundingSource[] {
  return results.filter(isRead).map((result) => {
    const uri = shownUrl(result);
    return { uri, title: result.title || new URL(uri).hostname };
  });
}

/** `All pages failed: <url>: <error>; ...`: why no page could be read. */
export function allPagesFailed(results: readonly PageResult[]): string {
  return `All pages failed: ${results.map((result) => `${result.url}: ${result.error}`).join('; ')}`;
}
