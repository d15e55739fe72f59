import { createLocalJWKSet, errors, type JWSHeaderParameters, type KeyLike } from 'jose';
import { CodedError } from '../common/errors/coded-error';
import { OutboundError, type OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { AuthErrorCode } from './auth-error-code';

/** The identity provider's keys could not be had (network, HTTP status, a body that is no JWKS). */
export class KeysUnavailableError extends CodedError<AuthErrorCode.KEYS_UNAVAILABLE> {
  constructor(message: string) {
    super(message, AuthErrorCode.KEYS_UNAVAILABLE);
  }
}

/** A JWKS fetch has this long, DNS to body; the request that needs it is waiting. */
const JWKS_TIMEOUT_MS = 5_000;
/** A key set is a few kB; a larger answer is not one. */
const MAX_JWKS_BYTES = 256 * 1024;
/** Keys are fetched again after this long (jose's default), so rotations are picked up. */
const CACHE_MAX_AGE_MS = 10 * 60_000;
/** A token with an unknown `kid` fetches the set again, but at most once in this long. */
const COOLDOWN_MS = 30_000;

type LocalKeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * `JWT_JWKS_URL`'s key set, fetched through the shared outbound client and read by jose's
 * `createLocalJWKSet`: cached for ten minutes, fetched again early when a token names a key the
 * set lacks (a rotation) unless the last fetch is under 30 s old, one fetch at a time. Any
 * failure to fetch it is `KeysUnavailableError` (503, docs/api.md, "Authentication").
 */
export class JwksKeySet {
  private cached: { keys: LocalKeySet; fetchedAt: number } | null = null;
  private fetching: Promise<LocalKeySet> | null = null;

  constructor(
    private readonly url: string,
    private readonly http: OutboundHttpClient,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The key for a token's protected header. jose's errors for the token itself (no such key,
   * several, an algorithm the set cannot serve) pass through for the caller to answer 401.
   */
  async keyFor(header: JWSHeaderParameters): Promise<KeyLike> {
    const cached = this.cached;
    const fresh = cached !== null && this.now() - cached.fetchedAt < CACHE_MAX_AGE_MS;
    const keys = fresh ? cached.keys : await this.reload();
    try {
      return await keys(header);
    } catch (error) {
      const settled = this.cached;
      if (
        !(error instanceof errors.JWKSNoMatchingKey) ||
        settled === null ||
        this.now() - settled.fetchedAt < COOLDOWN_MS
      ) {
        throw error;
      }
      return (await this.reload())(header);
    }
  }

  private reload(): Promise<LocalKeySet> {
    this.fetching ??= this.fetch().finally(() => {
      this.fetching = null;
    });
    return this.fetching;
  }

  private async fetch(): Promise<LocalKeySet> {
    let text: string;
    try {
      const response = await this.http.request({
        destination: 'operator',
        method: 'GET',
        url: this.url,
        headers: { accept: 'application/json' },
        timeoutMs: JWKS_TIMEOUT_MS,
        response: 'text',
        maxResponseBytes: MAX_JWKS_BYTES,
      });
      if (response.status < 200 || response.status >= 300) {
        throw new KeysUnavailableError(`JWKS endpoint answered HTTP ${response.status}`);
      }
      text = response.body;
    } catch (error) {
      if (error instanceof KeysUnavailableError) throw error;
      const reason = error instanceof OutboundError ? `${error.code}: ${error.message}` : error;
      throw new KeysUnavailableError(`JWKS could not be fetched (${String(reason)})`);
    }
    let keys: LocalKeySet;
    try {
      keys = createLocalJWKSet(JSON.parse(text) as Parameters<typeof createLocalJWKSet>[0]);
    } catch {
      throw new KeysUnavailableError('JWKS endpoint answered with something that is not a JWKS');
    }
    this.cached = { keys, fetchedAt: this.now() };
    return keys;
  }
}
