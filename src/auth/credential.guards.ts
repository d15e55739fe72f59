import { HttpException, Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { TokenExpiredError } from 'jsonwebtoken';
import type { AuthenticatedUser } from './authenticated-user';
import { KeysUnavailableError } from './jwt-verifier.service';

/** `AuthGuard('api-key')` with the interface document's 401 message. */
@Injectable()
export class ApiKeyAuthGuard extends AuthGuard('api-key') {
  override handleRequest<TUser = AuthenticatedUser>(error: Error | null, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw new UnauthorizedException('Invalid API key');
    return user;
  }
}

/** `AuthGuard('jwt')` with the interface document's 401 messages, and 503 when the keys are unavailable. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser = AuthenticatedUser>(error: Error | null, user: TUser | false, info: unknown): TUser {
    if (error) throw error;
    if (user) return user;
    if (info instanceof HttpException) throw info;
    if (info instanceof TokenExpiredError) throw new UnauthorizedException('Token has expired');
    if (info instanceof KeysUnavailableError) throw new ServiceUnavailableException('Identity provider keys are unavailable');
    throw new UnauthorizedException('Invalid token');
  }
}
