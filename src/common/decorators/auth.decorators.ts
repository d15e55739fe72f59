import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../../auth/authenticated-user';

/**
 * Who may call a route. The global guard denies by default (`user`); every other level is
 * declared on the route, and a test snapshots the declaration of every route.
 *  - `public`: no credentials needed (and none are read)
 *  - `optional`: anonymous callers allowed; credentials, when sent, must be valid
 *  - `user`: an API key or a JWT of an active user
 *  - `jwt`: an identity-provider JWT only
 *  - `admin`: an active user with the admin role
 */
export type AuthLevel = 'public' | 'optional' | 'user' | 'jwt' | 'admin';

export const AUTH_LEVEL_KEY = 'auth:level';

export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_LEVEL_KEY, 'public');
export const OptionalAuth = (): MethodDecorator & ClassDecorator =>
  SetMetadata(AUTH_LEVEL_KEY, 'optional');
export const JwtOnly = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_LEVEL_KEY, 'jwt');
export const AdminOnly = (): MethodDecorator & ClassDecorator =>
  SetMetadata(AUTH_LEVEL_KEY, 'admin');

export interface AuthenticatedRequest extends Request {
  user?: AuthenticatedUser;
}

/** The authenticated caller (undefined on `public`/`optional` routes called anonymously). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
