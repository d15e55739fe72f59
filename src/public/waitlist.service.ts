import { ConflictException, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { WaitlistRepository } from './waitlist.repository';

export const ALREADY_ON_WAITLIST = 'This email is already on the waitlist';

export class WaitlistJoined {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'integer', description: 'Place on the waitlist, from 1' })
  position: number;
}

@Injectable()
export class WaitlistService {
  constructor(private readonly entries: WaitlistRepository) {}

  /**
   * Emails are stored lowercased, so the unique index makes the check case-insensitive and
   * race-safe. `position` is the rank in the queue.
   */
  async joinWaitlist(email: string): Promise<WaitlistJoined> {
    const position = await this.entries.add(email.toLowerCase());
    if (position === null) throw new ConflictException(ALREADY_ON_WAITLIST);
    return { message: "You're on the waitlist", position };
  }
}
