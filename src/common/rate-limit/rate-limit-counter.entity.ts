import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Shared fixed-window counters for rate limits: one row per (bucket, window). Kept in PostgreSQL
 * so every instance enforces the same limit; the table is UNLOGGED (see the migration) because a
 * counter lost in a crash only resets a window.
 */
@Entity('rate_limit_counters')
@Index('ix_rate_limit_counters_expires_at', ['expiresAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  bucket: string;

  @PrimaryColumn({ type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer', default: 0 })
  hits: number;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
