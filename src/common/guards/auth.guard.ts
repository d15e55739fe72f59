import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService } from '../../auth/auth.service';
import {
  AUTH_LEVEL_KEY,
  type AuthenticatedRequest,
  type AuthLevel,
} from '../decorators/auth.decorators';

/** The declared auth level of a route handler (`user` when it declares none). */
export function routeAuthLevel(
  reflector: Reflector,
  handler: object,
  controller: object,
): AuthLevel {
  return (
    reflector.getAllAndOverride<AuthLevel | undefined>(AUTH_LEVEL_KEY, [
      handler,
      controller,
    ] as never) ?? 'user'
  );
}

/** Global guard: every route needs an active user unless it declares otherwise. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = routeAuthLevel(this.reflector, context.getHandler(), context.getClass());
    if (level === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (level === 'optional' && !header && !this.auth.authDisabled) return true;
    request.user = await this.auth.authenticate(header, level === 'jwt' ? 'jwt' : 'any');
    if (level === 'admin' && !request.user.isAdmin)
      throw new ForbiddenException('Admin access required');
    return true;
  }
}
