/** The short fixed forms of a page's `error` (docs/pages.md, "Page statuses"). */
export const PageErrorForm = {
  TIMED_OUT: 'timed out',
  CONNECTION_FAILED: 'connection failed',
  ADDRESS_NOT_ALLOWED: 'address not allowed',
  TOO_MANY_REDIRECTS: 'too many redirects',
  TOO_LARGE: 'too large',
  SELECTOR_MATCHED_NOTHING: 'selector matched nothing',
  NO_TEXT: 'no text',
  BOT_CHECK: 'blocked by a bot check',
  TOO_COMPLEX: 'too complex',
  NOT_A_FEED: 'not a feed',
  NO_BROWSER: 'no browser',
  BROWSER_FAILED: 'browser failed',
  WAIT_FOR_MATCHED_NOTHING: 'wait_for matched nothing',
} as const;

export function httpStatusError(status: number): string {
  return `HTTP ${status}`;
}

export function unsupportedContentTypeError(contentType: string): string {
  return `unsupported content type ${contentType}`;
}
