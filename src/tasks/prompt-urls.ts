/** At most this many pages a task watches, and so a suggestion carries. */
const MAX_SUGGESTED_PAGES = 10;
/** An http or https URL as written in free text: up to the next space, quote or angle bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence or a parenthesis around a URL rather than the URL itself. */
const TRAILING_PUNCTUATION = /[.,;:!?)]+$/;

/**
 * The http and https URLs a prompt holds (docs/pages.md, "Suggested pages"): the first 10 distinct ones
 * in the prompt's order, each without a trailing `.`, `,`, `;`, `:`, `!`, `?` or `)`, and as the
 * prompt writes it. Two that parse to the same URL are one, as they are in a task's `pages`.
 */
export function promptUrls(prompt: string): string[] {
  const urls = new Map<string, string>();
  for (const [match] of prompt.matchAll(URL_IN_TEXT)) {
    const url = match.replace(TRAILING_PUNCTUATION, '');
    if (!URL.canParse(url)) continue;
    const { href } = new URL(url);
    if (!urls.has(href)) urls.set(href, url);
    if (urls.size === MAX_SUGGESTED_PAGES) break;
  }
  return [...urls.values()];
}
