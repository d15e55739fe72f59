import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { AuthenticatedRequest } from '../decorators/auth.decorators';
import { routeAuthLevel } from '../guards/auth.guard';
import { IP_RATE_LIMIT_KEY, LLM_RATE_LIMIT_KEY, type IpRateLimitRule } from './rate-limit.decorator';
import { RateLimitService, type RateDecision, type RateWindow } from './rate-limit.service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Global guard, after authentication: per API key (per user for JWT callers) on authenticated
 * routes, plus per user on routes that call the model (`@LlmRateLimit`), per client IP on routes
 * that declare `@IpRateLimit`. Every window of a request is counted in one round trip.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The per-key (per-user for JWTs) windows; only the minute one for anonymous callers. */
  private callerWindows(caller: string, minuteOnly = false): RateWindow[] {
    const { perMinute, perHour, perDay } = this.config.rateLimit;
    const minute = { bucket: `${caller}:m`, lengthMs: MINUTE, limit: perMinute };
    if (minuteOnly) return [minute];
    return [
      minute,
      { bucket: `${caller}:h`, lengthMs: HOUR, limit: perHour },
      { bucket: `${caller}:d`, lengthMs: DAY, limit: perDay },
    ];
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const ipRule = this.reflector.get<IpRateLimitRule | undefined>(
      IP_RATE_LIMIT_KEY,
      context.getHandler(),
    );
    const ip = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    let decision: RateDecision;
    if (ipRule) {
      decision = await this.limits.hit([
        { bucket: `ip:${ipRule.name}:${ip}:m`, lengthMs: MINUTE, limit: ipRule.perMinute },
      ]);
    } else if (request.user) {
      const caller = request.user.apiKeyId
        ? `key:${request.user.apiKeyId}`
        : `user:${request.user.id}`;
      const windows = this.callerWindows(caller);
      if (this.reflector.get<boolean | undefined>(LLM_RATE_LIMIT_KEY, context.getHandler())) {
        windows.push({
          bucket: `llm:${request.user.id}:h`,
          lengthMs: HOUR,
          limit: this.config.rateLimit.llmPerHour,
        });
      }
      decision = await this.limits.hit(windows);
    } else if (
      routeAuthLevel(this.reflector, context.getHandler(), context.getClass()) === 'optional'
    ) {
      // Anonymous reads of routes that also serve signed-in callers (a public task, its history)
      // are counted per IP with the per-key per-minute limit, so they cannot be used unmetered.
      decision = await this.limits.hit(this.callerWindows(`ip:anonymous:${ip}`, true));
    } else {
      return true;
    }
    const response = context.switchToHttp().getResponse<Response>();
    const headers = {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(decision.resetEpochSeconds),
    };
    response.set(headers);
    if (!decision.allowed) {
      throw new HttpException(
        {
          detail: 'Rate limit exceeded',
          retry_after: decision.retryAfterSeconds,
          headers: { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    return true;
  }
}
