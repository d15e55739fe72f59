import { ConflictException, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import { WaitlistEntryEntity } from './waitlist-entry.entity';

export const ALREADY_ON_WAITLIST = 'This email is already on the waitlist';

export class WaitlistJoined {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'integer', description: 'Place on the waitlist, from 1' })
  position: number;
}

@Injectable()
export class WaitlistService {
  constructor(
    @InjectRepository(WaitlistEntryEntity)
    private readonly entries: Repository<WaitlistEntryEntity>,
  ) {}

  /**
   * Emails are stored lowercased, so the unique index (uq_waitlist_entries_email) makes the check
   * case-insensitive and race-safe. `position` is the rank in the queue (1-based, without gaps),
   * not the raw serial, which skips numbers on refused inserts.
   */
  async joinWaitlist(email: string): Promise<WaitlistJoined> {
    const inserted = await queryRows<{ position: number }>(
      this.entries.manager,
      `INSERT INTO waitlist_entries (email) VALUES ($1)
       ON CONFLICT (email) DO NOTHING RETURNING position`,
      [email.toLowerCase()],
    );
    if (inserted.length === 0) throw new ConflictException(ALREADY_ON_WAITLIST);
    const rank = await queryRows<{ rank: number }>(
      this.entries.manager,
      'SELECT count(*)::int AS rank FROM waitlist_entries WHERE position <= $1',
      [inserted[0].position],
    );
    return { message: "You're on the waitlist", position: rank[0].rank };
  }
}
