import type { PageResult } from './page.types';

/** One entry of an execution's `page_results` (docs/pages.md, "Page results"). */
export interface PageResultLine {
  url: string;
  final_url: string | null;
  status: PageResult['status'];
  http_status: number | null;
  title: string | null;
  error: string | null;
  added: string[];
  removed: string[];
  fetched_at: string;
}

export function pageResultLine(result: PageResult): PageResultLine {
  return {
    url: result.url,
    final_url: result.finalUrl,
    status: result.status,
    http_status: result.httpStatus,
    title: result.title,
    error: result.error,
    added: result.added,
    removed: result.removed,
    fetched_at: result.fetchedAt.toISOString(),
  };
}

/** A page's text as a model reads it: at most `maxChars`, the rest cut with a note. */
export function pageTextForPrompt(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters cut]`;
}
