import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PeriodicJobs } from '../../scheduler/periodic-jobs.service';

export interface RateWindow {
  /** The counter's name, e.g. `minute:key:<id>`. */
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
 * through PostgreSQL (design notes, "Counters for limits live in PostgreSQL"). `hitAll` counts a
 * request in all its windows with one upsert; `increment` serves a single window, for a stock
 * `ThrottlerGuard`.
 */
@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.every('rate-limit-cleanup', CLEANUP_INTERVAL_MS, () => this.deleteExpired());
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const decision = await this.hitAll([{ bucket: key, lengthMs: ttl, limit }]);
    const seconds = Math.max(0, decision.resetEpochSeconds - Math.ceil(Date.now() / 1000));
    return {
      totalHits: limit - decision.remaining + (decision.allowed ? 0 : 1),
      timeToExpire: seconds,
      isBlocked: !decision.allowed,
      timeToBlockExpire: decision.allowed ? 0 : decision.retryAfterSeconds,
    };
  }

  async hitAll(windows: RateWindow[], now = Date.now()): Promise<RateDecision> {
    const starts = windows.map((window) => Math.floor(now / window.lengthMs) * window.lengthMs);
    const ends = windows.map((window, index) => starts[index] + window.lengthMs);
    const names = windows.map((window) => window.bucket);
    const rows: Array<{ bucket: string; hits: number }> = await this.dataSource.query(
      `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
       SELECT bucket, window_start, 1, expires_at
       FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS t(bucket, window_start, expires_at)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING bucket, hits`,
      [names, starts.map(toIso), ends.map(toIso)],
    );
    const hits = new Map(rows.map((row) => [row.bucket, Number(row.hits)]));
    const exceeded = windows.findIndex(
      (window, index) => (hits.get(names[index]) ?? 0) > window.limit,
    );
    if (exceeded >= 0) {
      // A refused request does not use up quota: take the hit back from every window.
      await this.dataSource.query(
        `UPDATE rate_limit_counters SET hits = hits - 1
         WHERE (bucket, window_start) IN (SELECT * FROM unnest($1::text[], $2::timestamptz[]))`,
        [names, starts.map(toIso)],
      );
    }
    const remaining = Math.max(
      0,
      Math.min(
        ...windows.map(
          (window, index) => window.limit - Math.min(hits.get(names[index]) ?? 0, window.limit),
        ),
      ),
    );
    const resetIndex = exceeded >= 0 ? exceeded : 0;
    const resetMs = ends[resetIndex];
    return {
      allowed: exceeded < 0,
      limit: windows[0].limit,
      remaining,
      resetEpochSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private async deleteExpired(): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_counters WHERE expires_at < now()');
  }
}

function toIso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
