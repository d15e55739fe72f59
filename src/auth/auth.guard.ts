import {
  ForbiddenException,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService } from './auth.service';
import type { AuthenticatedUser } from './authenticated-user';
import { bearerCredential } from './bearer-credential';
import { CredentialAuthenticator } from './credential-authenticator';
import {
  routeAuthLevel,
  type AuthenticatedRequest,
  type AuthLevel,
} from '../common/decorators/auth.decorators';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';

/**
 * Global guard: every route needs an active user unless it declares otherwise. It reads the
 * Bearer credential's shape and hands it to the passport strategy for it: `sk_...` to
 * `api-key`, a JWT to `jwt`. Failed authentication is limited per client IP
 * (`AuthFailureLimiter`).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly credentials: CredentialAuthenticator,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = routeAuthLevel(this.reflector, context.getHandler(), context.getClass());
    if (level === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest<AuthenticatedUser>>();
    const local = this.auth.localCaller();
    if (local) {
      request.user = local;
      return true;
    }
    const header = request.headers.authorization;
    // An anonymous caller of a route that allows one has failed nothing.
    if (level === 'optional' && !header) return true;
    request.user = await this.failures.authenticateWithinLimit(request, () =>
      this.authenticate(level, header, request),
    );
    if (level === 'admin' && !request.user.isAdmin)
      throw new ForbiddenException('Admin access required');
    return true;
  }

  private async authenticate(
    level: AuthLevel,
    header: string | undefined,
    request: AuthenticatedRequest<AuthenticatedUser>,
  ): Promise<AuthenticatedUser> {
    const credential = bearerCredential(header);
    if (credential.startsWith('sk_')) {
      if (level === 'jwt')
        throw new UnauthorizedException('This endpoint requires an identity-provider JWT');
      return this.credentials.apiKey(request);
    }
    if (looksLikeJwt(credential)) return this.credentials.jwt(request);
    throw new UnauthorizedException(level === 'jwt' ? 'Invalid token' : 'Invalid API key');
  }
}

function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}
