import {
  HttpException,
  Injectable,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { TokenExpiredError } from 'jsonwebtoken';
import type { Strategy } from 'passport';
import type { AuthenticatedUser } from './authenticated-user';
import { KeysUnavailableError } from './jwt-verifier.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { JwtStrategy } from './strategies/jwt.strategy';

interface StrategyOutcome {
  user: AuthenticatedUser | false;
  info: unknown;
}

/** A passport strategy's `authenticate` callbacks (what passport's middleware attaches). */
interface StrategyAttempt {
  success(user: AuthenticatedUser, info?: unknown): void;
  fail(info?: unknown): void;
  error(error: unknown): void;
  pass(): void;
  redirect(): void;
  authenticate(request: unknown, options: unknown): void;
}

/**
 * Runs this application's passport strategies on a request, with the 401 messages of
 * docs/api.md. Strategies are called directly, as passport's middleware calls them, rather than
 * through passport's registry: that registry is one per process, and a process may hold several
 * application instances (the tests run them side by side).
 */
@Injectable()
export class CredentialAuthenticator {
  constructor(
    private readonly apiKeyStrategy: ApiKeyStrategy,
    private readonly jwtStrategy: JwtStrategy,
  ) {}

  async apiKey(request: unknown): Promise<AuthenticatedUser> {
    const { user } = await run(this.apiKeyStrategy, request);
    if (!user) throw new UnauthorizedException('Invalid API key');
    return user;
  }

  async jwt(request: unknown): Promise<AuthenticatedUser> {
    const { user, info } = await run(this.jwtStrategy, request);
    if (user) return user;
    if (info instanceof HttpException) throw info;
    if (info instanceof TokenExpiredError) throw new UnauthorizedException('Token has expired');
    if (info instanceof KeysUnavailableError)
      throw new ServiceUnavailableException('Identity provider keys are unavailable');
    throw new UnauthorizedException('Invalid token');
  }
}

function run(strategy: Strategy, request: unknown): Promise<StrategyOutcome> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(strategy) as StrategyAttempt;
    attempt.success = (user, info) => resolve({ user, info });
    attempt.fail = (info) => resolve({ user: false, info });
    attempt.pass = () => resolve({ user: false, info: undefined });
    attempt.redirect = () => resolve({ user: false, info: undefined });
    attempt.error = reject;
    attempt.authenticate(request, { session: false });
  });
}
