import { Inject, Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { createRemoteJWKSet, errors, importSPKI, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type KeyLike } from 'jose';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { IdentityClaims } from '../users/users.service';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** The identity provider's keys could not be had (network, HTTP status, a body that is no JWKS). */
class KeysUnavailableError extends Error {}

/** Verifies identity-provider JWTs against `JWT_JWKS_URL` or `JWT_PUBLIC_KEY`. */
@Injectable()
export class JwtVerifierService {
  private keySource: Promise<JWTVerifyGetKey | KeyLike> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  isConfigured(): boolean {
    return this.config.jwt.jwksUrl !== null || this.config.jwt.publicKey !== null;
  }

  async verify(token: string): Promise<IdentityClaims> {
    const key = await this.key();
    let payload: JWTPayload;
    try {
      const options = {
        algorithms: ALGORITHMS,
        issuer: this.config.jwt.issuer ?? undefined,
        audience: this.config.jwt.audience ?? undefined,
        requiredClaims: ['exp'],
        clockTolerance: 5,
      };
      const result =
        typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
      payload = result.payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new UnauthorizedException('Token has expired');
      if (error instanceof KeysUnavailableError) {
        throw new ServiceUnavailableException('Identity provider keys are unavailable');
      }
      throw new UnauthorizedException('Invalid token');
    }
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || !this.authorizedParty(payload)) {
      throw new UnauthorizedException('Invalid token');
    }
    const email = payload[this.config.jwt.emailClaim];
    return {
      subject: payload.sub,
      email: typeof email === 'string' && email.length > 0 ? email : null,
      emailVerified: this.config.jwt.trustEmail || payload.email_verified === true,
      adminClaim: hasAdminRole(payload),
    };
  }

  /** `JWT_AUTHORIZED_PARTIES`, when set, must list the token's `azp`. */
  private authorizedParty(payload: JWTPayload): boolean {
    const parties = this.config.jwt.authorizedParties;
    return parties.length === 0 || (typeof payload.azp === 'string' && parties.includes(payload.azp));
  }

  private key(): Promise<JWTVerifyGetKey | KeyLike> {
    if (!this.isConfigured()) {
      throw new ServiceUnavailableException(
        'JWT verification client is not initialized: set JWT_JWKS_URL or JWT_PUBLIC_KEY',
      );
    }
    this.keySource ??= this.config.jwt.jwksUrl
      ? Promise.resolve(remoteKeys(new URL(this.config.jwt.jwksUrl)))
      : importPublicKey(this.config.jwt.publicKey as string);
    return this.keySource;
  }
}

/**
 * The JWKS as a key source whose fetch failures, whatever their cause, read as
 * `KeysUnavailableError` (a 503: the caller's token may be fine). A JWKS that was fetched but
 * holds no key for the token stays a token problem (401).
 */
function remoteKeys(url: URL): JWTVerifyGetKey {
  const jwks = createRemoteJWKSet(url, { timeoutDuration: 5000 });
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new KeysUnavailableError(error instanceof Error ? error.message : String(error));
    }
  };
}

async function importPublicKey(pem: string): Promise<KeyLike> {
  for (const algorithm of ['RS256', 'ES256', 'EdDSA']) {
    try {
      return await importSPKI(pem, algorithm);
    } catch {
      // try the next key type
    }
  }
  throw new ServiceUnavailableException('JWT verification client is not initialized: JWT_PUBLIC_KEY is not a usable key');
}

/** `role: "admin"` at the top level or in `public_metadata` (the identity provider's custom claims). */
function hasAdminRole(payload: JWTPayload): boolean {
  if (payload.role === 'admin') return true;
  const metadata = payload.public_metadata;
  return typeof metadata === 'object' && metadata !== null && (metadata as { role?: unknown }).role === 'admin';
}
