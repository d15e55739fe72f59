import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows, Statement } from '../../database/sql-rows';

/** One fixed-window counter: its name and the window it counts in. */
export interface CounterWindow {
  bucket: string;
  start: Date;
  end: Date;
}

const HIT = new Statement(
  `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
   SELECT bucket, window_start, 1, expires_at
   FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS t(bucket, window_start, expires_at)
   ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
   RETURNING bucket, hits`,
);

/** The queries on `rate_limit_counters` (UNLOGGED: a counter lost in a crash only resets a window). */
@Injectable()
export class RateLimitCounterRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Counts one hit in every window, in one upsert; answers each bucket's hits. In `manager`'s
   * transaction, the hits hold their counters until it ends and go if it rolls back.
   */
  async hit(
    windows: CounterWindow[],
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<Map<string, number>> {
    const rows = await queryRows<{ bucket: string; hits: number }>(manager, HIT, [
      windows.map((window) => window.bucket),
      windows.map((window) => window.start),
      windows.map((window) => window.end),
    ]);
    return new Map(rows.map((row) => [row.bucket, Number(row.hits)]));
  }

  /** The hits of one window so far, without counting one (the primary key serves it). */
  async hitsOf(window: CounterWindow): Promise<number> {
    const rows = await queryRows<{ hits: number }>(
      this.dataSource,
      'SELECT hits FROM rate_limit_counters WHERE bucket = $1 AND window_start = $2',
      [window.bucket, window.start],
    );
    return rows.length === 0 ? 0 : Number(rows[0].hits);
  }

  /** Takes one hit back from every window. */
  async unhit(
    windows: CounterWindow[],
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<void> {
    await manager.query(
      `UPDATE rate_limit_counters SET hits = hits - 1
       WHERE (bucket, window_start) IN (SELECT * FROM unnest($1::text[], $2::timestamptz[]))`,
      [windows.map((window) => window.bucket), windows.map((window) => window.start)],
    );
  }

  async deleteExpired(): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_counters WHERE expires_at < now()');
  }
}
