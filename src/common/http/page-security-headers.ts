/**
 * The headers of the service's own pages and their files, `/docs` and `/console` (docs/api.md,
 * "Documentation"): a Content-Security-Policy under which a page loads scripts,
 * styles (from `styleSources`), images (`data:` URLs too) and API answers from this origin only,
 * and no site may frame it, which `X-Frame-Options` repeats for older browsers; no content-type
 * sniffing; no referrer.
 */
export function pageSecurityHeaders(styleSources: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      `style-src ${styleSources}`,
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
