import {
  SetMetadata,
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../../auth/authenticated-user';
import { ApiErrors } from '../openapi/api-errors.decorator';

/**
 * Who may call a route. The global guard denies by default (`user`); every other level is
 * declared on the route, and a test snapshots the declaration of every route. Each level also
 * states itself in the OpenAPI document, so the document says what the guard does.
 *  - `public`: no credentials needed (and none are read)
 *  - `optional`: anonymous callers allowed; credentials, when sent, must be valid
 *  - `user`: an API key or a JWT of an active user
 *  - `jwt`: an identity-provider JWT only
 *  - `admin`: an active user with the admin role
 */
export type AuthLevel = 'public' | 'optional' | 'user' | 'jwt' | 'admin';

export const AUTH_LEVEL_KEY = 'auth:level';

export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_LEVEL_KEY, 'public');
/** Documented as the controller's bearer scheme or no credentials at all (`{}`). */
export const OptionalAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_LEVEL_KEY, 'optional'), ApiSecurity({}));
export const JwtOnly = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_LEVEL_KEY, 'jwt');
export const AdminOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_LEVEL_KEY, 'admin'), ApiErrors(403));

export interface AuthenticatedRequest extends Request {
  user?: AuthenticatedUser;
}

/** The authenticated caller (undefined on `public`/`optional` routes called anonymously). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
