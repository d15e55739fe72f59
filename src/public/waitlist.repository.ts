import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../database/sql-rows';

/** The queries on `waitlist_entries`. */
@Injectable()
export class WaitlistRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds a (lowercased) email and answers its rank in the queue (1-based, without gaps, unlike
   * the raw serial, which skips numbers on refused inserts); null when it is already there
   * (uq_waitlist_entries_email).
   */
  async add(email: string): Promise<number | null> {
    const inserted = await queryRows<{ position: number }>(
      this.dataSource,
      `INSERT INTO waitlist_entries (email) VALUES ($1) ON CONFLICT (email) DO NOTHING RETURNING position`,
      [email],
    );
    if (inserted.length === 0) return null;
    const rank = await queryRows<{ rank: number }>(
      this.dataSource,
      'SELECT count(*)::int AS rank FROM waitlist_entries WHERE position <= $1',
      [inserted[0].position],
    );
    return rank[0].rank;
  }
}
