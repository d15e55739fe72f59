import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { EntityManager } from 'typeorm';
import { PeriodicJobs } from '../periodic-jobs/periodic-jobs.service';
import { RateLimitCounterRepository, type CounterWindow } from './rate-limit-counter.repository';
import { Clock } from '../clock/clock';

export interface RateWindow {
  /** The counter's name, e.g. `key:<id>:m`. */
  bucket: string;
  lengthMs: number;
  limit: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Headers for every answer: limit and reset of the first window, the lowest remaining. */
  limit: number;
  remaining: number;
  resetEpochSeconds: number;
  retryAfterSeconds: number;
}

const CLEANUP_INTERVAL_MS = 60_000;

/**
 * The `ThrottlerStorage` of the rate limits: fixed-window counters shared by every instance
 * through PostgreSQL, so a limit holds however many instances serve the API. `hitAll` counts a
 * request in all its windows with one upsert; `increment` serves a single window, for a stock
 * `ThrottlerGuard`.
 */
@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage, OnModuleInit {
  constructor(
    private readonly counters: RateLimitCounterRepository,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.every('rate-limit-cleanup', CLEANUP_INTERVAL_MS, () => this.counters.deleteExpired());
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const decision = await this.hitAll([{ bucket: key, lengthMs: ttl, limit }]);
    const seconds = Math.max(
      0,
      decision.resetEpochSeconds - Math.ceil(this.clock.now().getTime() / 1000),
    );
    return {
      totalHits: limit - decision.remaining + (decision.allowed ? 0 : 1),
      timeToExpire: seconds,
      isBlocked: !decision.allowed,
      timeToBlockExpire: decision.allowed ? 0 : decision.retryAfterSeconds,
    };
  }

  /**
   * Whether one more request fits in `window`, without counting it: for limits that count only
   * some outcomes (failed authentication), decided before the request is served.
   */
  async peek(window: RateWindow, now = this.clock.now().getTime()): Promise<RateDecision> {
    const counter = counterOf(window, now);
    const hits = await this.counters.hitsOf(counter);
    const resetMs = counter.end.getTime();
    return {
      allowed: hits < window.limit,
      limit: window.limit,
      remaining: Math.max(0, window.limit - hits),
      resetEpochSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  /** Counts a request in every window; in `manager`'s transaction when given. */
  async hitAll(windows: RateWindow[], manager?: EntityManager): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const counters = windows.map((window) => counterOf(window, now));
    const hits = await this.counters.hit(counters, manager);
    const exceeded = windows.findIndex((window) => (hits.get(window.bucket) ?? 0) > window.limit);
    // A refused request does not use up quota: take the hit back from every window.
    if (exceeded >= 0) await this.counters.unhit(counters, manager);
    const remaining = Math.max(
      0,
      Math.min(
        ...windows.map(
          (window) => window.limit - Math.min(hits.get(window.bucket) ?? 0, window.limit),
        ),
      ),
    );
    const resetMs = counters[exceeded >= 0 ? exceeded : 0].end.getTime();
    return {
      allowed: exceeded < 0,
      limit: windows[0].limit,
      remaining,
      resetEpochSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}

/** The fixed window of `window` that `now` falls in. */
function counterOf(window: RateWindow, now: number): CounterWindow {
  const start = Math.floor(now / window.lengthMs) * window.lengthMs;
  return { bucket: window.bucket, start: new Date(start), end: new Date(start + window.lengthMs) };
}
