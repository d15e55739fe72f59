import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { isUniqueViolation } from '../database/database-errors';
import { queryRows } from '../database/sql-rows';
import { UserEntity } from './user.entity';
import { isWellFormedUsername, RESERVED_USERNAMES } from './username.rules';

export const USERNAME_ALREADY_SET = 'Username cannot be changed once it is set';
export const USERNAME_TAKEN = 'Username is already taken';
export const USERNAME_RESERVED = 'Username is reserved';

const USERNAME_UNIQUE_INDEX = 'uq_users_username';

export class UsernameClaimed {
  @ApiProperty()
  username: string;

  @ApiProperty({ enum: [true] })
  updated: true;
}

export class UsernameAvailability {
  @ApiProperty()
  available: boolean;
}

/** Claims and checks usernames: set once, unique, never one of the reserved names. */
@Injectable()
export class UsernameService {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /**
   * Sets the caller's username once. The conditional UPDATE and the unique index make it
   * race-safe: two users claiming one name get one 200 and one 409, and one user sending two
   * names at once gets one 200 and one 400. Sending the name already set answers 200 again, so a
   * client retrying after a lost response is not told it failed.
   */
  async claim(userId: string, username: string): Promise<UsernameClaimed> {
    const reserved = RESERVED_USERNAMES.has(username);
    let claimed: Array<{ username: string }>;
    try {
      // The NOT EXISTS spares the usual "taken" case a failed statement (and its error log);
      // the unique index still decides when two claims race.
      claimed = await queryRows(
        this.users.manager,
        `UPDATE users SET username = $1, updated_at = now()
         WHERE id = $2 AND username IS NULL AND NOT $3::boolean
           AND NOT EXISTS (SELECT 1 FROM users WHERE username = $1)
         RETURNING username`,
        [username, userId, reserved],
      );
    } catch (error) {
      if (isUniqueViolation(error, USERNAME_UNIQUE_INDEX))
        throw new ConflictException(USERNAME_TAKEN);
      throw error;
    }
    if (claimed.length > 0) return { username, updated: true };
    const current = await this.currentUsername(userId);
    if (current === username) return { username, updated: true };
    if (current !== null) throw new BadRequestException(USERNAME_ALREADY_SET);
    throw new ConflictException(reserved ? USERNAME_RESERVED : USERNAME_TAKEN);
  }

  /** False for a taken, reserved or malformed name (index `uq_users_username`). */
  async isAvailable(username: string): Promise<boolean> {
    if (!isWellFormedUsername(username) || RESERVED_USERNAMES.has(username)) return false;
    return !(await this.users.existsBy({ username }));
  }

  private async currentUsername(userId: string): Promise<string | null> {
    const user = await this.users.findOne({ where: { id: userId }, select: { username: true } });
    return user?.username ?? null;
  }
}
