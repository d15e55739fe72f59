import {
  SetMetadata,
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
} from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
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

/** What shared code (rate limits) reads of a caller; auth/ puts its `AuthenticatedUser` there. */
export interface CallerIdentity {
  id: string;
  /** Set when the caller used an API key. */
  apiKeyId: string | null;
}

/** A request the global guard let through: `user` is the caller it authenticated. */
export interface AuthenticatedRequest<
  User extends CallerIdentity = CallerIdentity,
> extends Request {
  user?: User;
}

/**
 * The authenticated caller (undefined on `public`/`optional` routes called anonymously), typed
 * by the parameter: `@CurrentUser() user: AuthenticatedUser`.
 */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
