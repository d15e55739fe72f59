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
import { CredentialAuthenticator } from './credential-authenticator';
import { routeAuthLevel, type AuthenticatedRequest } from '../common/decorators/auth.decorators';

/**
 * Global guard: every route needs an active user unless it declares otherwise. It reads the
 * Bearer credential's shape and hands it to the passport strategy for it: `sk_...` to
 * `api-key`, a JWT to `jwt`.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly credentials: CredentialAuthenticator,
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
    if (level === 'optional' && !header) return true;
    const credential = bearerCredential(header);
    if (credential.startsWith('sk_')) {
      if (level === 'jwt')
        throw new UnauthorizedException('This endpoint requires an identity-provider JWT');
      request.user = await this.credentials.apiKey(request);
    } else if (looksLikeJwt(credential)) {
      request.user = await this.credentials.jwt(request);
    } else {
      throw new UnauthorizedException(level === 'jwt' ? 'Invalid token' : 'Invalid API key');
    }
    if (level === 'admin' && !request.user.isAdmin)
      throw new ForbiddenException('Admin access required');
    return true;
  }
}

function bearerCredential(header: string | undefined): string {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!match) throw new UnauthorizedException('Authorization header missing');
  return match[1];
}

function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}
