import {
  Injectable,
  NotFoundException,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { authConfig, type AuthConfig } from '../auth/auth.config';
import { bearerCredential } from '../auth/bearer-credential';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';
import { InjectConfig } from '../config/config-slice';
import { metricsConfig, type MetricsConfig } from './metrics.config';

/**
 * `GET /metrics` has its own rule (docs/api.md, "Operations"), not the API's credentials: with
 * `METRICS_TOKEN` set, that token as a Bearer credential (else 401), a wrong or missing token
 * counting as a failed authentication of the client (`AuthFailureLimiter`); without it, open
 * when `AUTH_DISABLED=true`; otherwise the route does not exist (404).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly tokenDigest: Buffer | null;

  constructor(
    @InjectConfig(metricsConfig) config: MetricsConfig,
    @InjectConfig(authConfig) private readonly auth: AuthConfig,
    private readonly failures: AuthFailureLimiter,
  ) {
    this.tokenDigest = config.metricsToken === null ? null : digest(config.metricsToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const expected = this.tokenDigest;
    if (expected === null) {
      if (this.auth.authDisabled) return true;
      throw new NotFoundException('Not Found');
    }
    const request = context.switchToHttp().getRequest<Request>();
    return this.failures.authenticateWithinLimit(request, () => {
      const token = bearerCredential(request.headers.authorization);
      // Digests have one length, so the comparison takes the same time whatever was sent.
      if (!timingSafeEqual(digest(token), expected)) {
        throw new UnauthorizedException('Invalid metrics token');
      }
      return true;
    });
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
