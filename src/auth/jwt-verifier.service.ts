import { Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { decodeProtectedHeader, errors, importSPKI, type KeyLike } from 'jose';
import type { JwtPayload } from 'jsonwebtoken';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { InjectConfig } from '../config/config-slice';
import type { IdentityClaims } from '../users/users.service';
import { authConfig, type AuthConfig } from './auth.config';
import { JwksKeySet, KeysUnavailableError } from './jwks-key-set';

export { KeysUnavailableError } from './jwks-key-set';

/** The signature algorithms accepted (what identity providers issue and jsonwebtoken verifies). */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;

/**
 * The key side of identity-provider JWTs (`JWT_JWKS_URL`, fetched through the shared outbound
 * client and cached, or `JWT_PUBLIC_KEY`) and the rules on a verified token's claims. The
 * signature, `exp`, `iss` and `aud` are checked by the passport `jwt` strategy with the key
 * found here.
 */
@Injectable()
export class JwtVerifierService {
  private keySource: Promise<JwksKeySet | KeyLike> | null = null;

  constructor(
    @InjectConfig(authConfig) private readonly config: AuthConfig,
    private readonly http: OutboundHttpClient,
  ) {}

  isConfigured(): boolean {
    return this.config.jwt.jwksUrl !== null || this.config.jwt.publicKey !== null;
  }

  /** The key that signed `token`. A JWKS that cannot be fetched, for any reason: `KeysUnavailableError`. */
  async keyFor(token: string): Promise<KeyLike> {
    const source = await this.keys();
    if (!(source instanceof JwksKeySet)) return source;
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new UnauthorizedException('Invalid token');
    }
    try {
      return await source.keyFor(header);
    } catch (error) {
      if (error instanceof KeysUnavailableError) throw error;
      // A fetched key set without the token's key, or none for its algorithm, is the token's
      // problem, not the provider's.
      if (error instanceof errors.JOSEError) throw new UnauthorizedException('Invalid token');
      throw new KeysUnavailableError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The caller's identity in a verified token; 401 when the token lacks what the service needs. */
  claimsOf(payload: JwtPayload): IdentityClaims {
    const { sub } = payload;
    if (
      typeof payload.exp !== 'number' ||
      typeof sub !== 'string' ||
      sub.length === 0 ||
      !this.authorizedParty(payload)
    ) {
      throw new UnauthorizedException('Invalid token');
    }
    const email: unknown = payload[this.config.jwt.emailClaim];
    return {
      subject: sub,
      email: typeof email === 'string' && email.length > 0 ? email : null,
      emailVerified: this.config.jwt.trustEmail || payload.email_verified === true,
      adminClaim: hasAdminRole(payload),
    };
  }

  /** `JWT_AUTHORIZED_PARTIES`, when set, must list the token's `azp`. */
  private authorizedParty(payload: JwtPayload): boolean {
    const parties = this.config.jwt.authorizedParties;
    const azp: unknown = payload.azp;
    return parties.length === 0 || (typeof azp === 'string' && parties.includes(azp));
  }

  private keys(): Promise<JwksKeySet | KeyLike> {
    if (!this.isConfigured()) {
      throw new ServiceUnavailableException(
        'JWT verification client is not initialized: set JWT_JWKS_URL or JWT_PUBLIC_KEY',
      );
    }
    this.keySource ??= this.config.jwt.jwksUrl
      ? Promise.resolve(new JwksKeySet(this.config.jwt.jwksUrl, this.http))
      : importPublicKey(this.config.jwt.publicKey as string);
    return this.keySource;
  }
}

async function importPublicKey(pem: string): Promise<KeyLike> {
  for (const algorithm of ['RS256', 'ES256']) {
    try {
      return await importSPKI(pem, algorithm);
    } catch {
      // try the next key type
    }
  }
  throw new ServiceUnavailableException(
    'JWT verification client is not initialized: JWT_PUBLIC_KEY is not a usable key',
  );
}

/** `role: "admin"` at the top level or in `public_metadata` (the identity provider's custom claims). */
function hasAdminRole(payload: JwtPayload): boolean {
  if (payload.role === 'admin') return true;
  const metadata: unknown = payload.public_metadata;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    (metadata as { role?: unknown }).role === 'admin'
  );
}
