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
import { InjectConfig } from '../config/config-slice';
import { metricsConfig, type MetricsConfig } from './metrics.config';

/**
 * `GET /metrics` has its own rule (contract §10), not the API's credentials: with `METRICS_TOKEN`
 * set, that token as a Bearer credential (else 401); without it, open when `AUTH_DISABLED=true`;
 * otherwise the route does not exist (404).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly tokenDigest: Buffer | null;

  constructor(
    @InjectConfig(metricsConfig) config: MetricsConfig,
    @InjectConfig(authConfig) private readonly auth: AuthConfig,
  ) {
    this.tokenDigest = config.metricsToken === null ? null : digest(config.metricsToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.tokenDigest === null) {
      if (this.auth.authDisabled) return true;
      throw new NotFoundException('Not Found');
    }
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    if (!match) throw new UnauthorizedException('Authorization header missing');
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(digest(match[1]), this.tokenDigest)) {
      throw new UnauthorizedException('Invalid metrics token');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
