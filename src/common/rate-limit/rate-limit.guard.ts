import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerGetTrackerFunction,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import {
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TRACKER,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants';
import type { Response } from 'express';
import { PostgresThrottlerStorage, type RateWindow } from './postgres-throttler.storage';
import { rateLimitExceeded, rateLimitHeaders } from './rate-limit-response';

/**
 * Global guard, after authentication. The named throttlers (`rate-limit.throttlers.ts`) decide
 * what each request counts against, honouring `@Throttle()` and `@SkipThrottle()` on routes;
 * unlike the stock guard, every window of a request is counted in one round trip, and the answer
 * carries the headers and 429 body of docs/api.md, "Rate limits".
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly counters: PostgresThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, counters, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const windows = await this.windowsOf(context);
    if (windows.length === 0) return true;
    const decision = await this.counters.hitAll(windows);
    context.switchToHttp().getResponse<Response>().set(rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitExceeded(decision);
    return true;
  }

  /** The windows this request counts in, shortest first (their order in `throttlers`). */
  private async windowsOf(context: ExecutionContext): Promise<RateWindow[]> {
    const request = context.switchToHttp().getRequest<Record<string, unknown>>();
    const targets = [context.getHandler(), context.getClass()];
    const windows: RateWindow[] = [];
    for (const throttler of this.throttlers) {
      const name = throttler.name as string;
      if (this.reflector.getAllAndOverride<boolean>(THROTTLER_SKIP + name, targets)) continue;
      if (throttler.skipIf?.(context)) continue;
      const getTracker =
        this.reflector.getAllAndOverride<ThrottlerGetTrackerFunction | undefined>(
          THROTTLER_TRACKER + name,
          targets,
        ) ?? throttler.getTracker;
      const tracker = await getTracker?.(request, context);
      if (!tracker) continue;
      windows.push({
        bucket: tracker,
        lengthMs:
          this.reflector.getAllAndOverride<number>(THROTTLER_TTL + name, targets) ??
          (throttler.ttl as number),
        limit:
          this.reflector.getAllAndOverride<number>(THROTTLER_LIMIT + name, targets) ??
          (throttler.limit as number),
      });
    }
    return windows;
  }
}
