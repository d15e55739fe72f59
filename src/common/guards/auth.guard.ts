import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService } from '../../auth/auth.service';
import { AUTH_LEVEL_KEY, type AuthenticatedRequest, type AuthLevel } from '../decorators/auth.decorators';

export function routeAuthLevel(reflector: Reflector, context: Pick<ExecutionContext, 'getHandler' | 'getClass'>): AuthLevel {
  return reflector.getAllAndOverride<AuthLevel>(AUTH_LEVEL_KEY, [context.getHandler(), context.getClass()]) ?? 'user';
}

/** Global guard: every route needs an active user unless it declares otherwise. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = routeAuthLevel(this.reflector, context);
    if (level === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (level === 'optional' && !header && !this.auth.authDisabled) return true;
    request.user = await this.auth.authenticate(header, level === 'jwt' ? 'jwt' : 'any');
    if (level === 'admin' && !request.user.isAdmin) throw new ForbiddenException('Admin access required');
    return true;
  }
}
