/**
 * Why an outbound exchange produced no answer; callers word their own messages from it. The
 * values are the words messages show (`dns: ...`).
 */
export enum OutboundErrorCode {
  INVALID_URL = 'invalid-url',
  /** The host resolves to a private or reserved address (the SSRF guard). */
  BLOCKED = 'blocked',
  /** The host did not resolve. */
  DNS = 'dns',
  TIMEOUT = 'timeout',
  CANCELLED = 'cancelled',
  TOO_LARGE = 'too-large',
  NETWORK = 'network',
}
