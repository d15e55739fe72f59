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
  /** Headers for every answer, all of one window (`hitAll` says which). */
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

  /**
   * Counts a request in every window of `windows` (a refused request in none). The decision
   * describes one window: the one with the fewest requests left after this one; of windows with
   * as few left, the one that resets last, so a refused request's `Retry-After` is when every
   * window it went past has reset. In `manager`'s transaction when given.
   */
  async hitAll(windows: RateWindow[], manager?: EntityManager): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const counters = windows.map((window) => counterOf(window, now));
    const hits = await this.counters.hit(counters, manager);
    const allowed = windows.every((window) => (hits.get(window.bucket) ?? 0) <= window.limit);
    // A refused request does not use up quota: take the hit back from every window.
    if (!allowed) await this.counters.unhit(counters, manager);
    const left = windows.map((window) =>
      Math.max(0, window.limit - (hits.get(window.bucket) ?? 0) + (allowed ? 0 : 1)),
    );
    let chosen = 0;
    for (let index = 1; index < windows.length; index += 1) {
      if (
        left[index] < left[chosen] ||
        (left[index] === left[chosen] && counters[index].end > counters[chosen].end)
      )
        chosen = index;
    }
    const resetMs = counters[chosen].end.getTime();
    return {
      allowed,
      limit: windows[chosen].limit,
      remaining: left[chosen],
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
