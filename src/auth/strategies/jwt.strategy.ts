import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { JwtPayload } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { InjectConfig } from '../../config/config-slice';
import { AuthService } from '../auth.service';
import type { AuthenticatedUser } from '../authenticated-user';
import { JWT_ALGORITHMS, JwtVerifierService } from '../jwt-verifier.service';
import { authConfig, type AuthConfig } from '../auth.config';

/** Seconds of clock difference with the identity provider tolerated on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Passport strategy `jwt`: an identity-provider token, verified against the JWKS (or PEM key)
 * that `JwtVerifierService` provides, then resolved to its user.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @InjectConfig(authConfig) config: AuthConfig,
    private readonly verifier: JwtVerifierService,
    private readonly auth: AuthService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKeyProvider: (_request, token: string, done) => {
        verifier.keyFor(token).then(
          // jsonwebtoken 9 verifies with a KeyObject; the typings only list string and Buffer.
          (key) => done(null, key as unknown as Buffer),
          (error: unknown) => done(error),
        );
      },
      algorithms: [...JWT_ALGORITHMS],
      issuer: config.jwt.issuer ?? undefined,
      audience: config.jwt.audience ?? undefined,
      jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_SECONDS },
    });
  }

  validate(payload: JwtPayload): Promise<AuthenticatedUser> {
    return this.auth.authenticateIdentity(this.verifier.claimsOf(payload));
  }
}
