import {
  BadRequestException,
  ConflictException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { isUniqueViolation } from '../database/database-errors';
import { UserRepository } from './user.repository';
import { isWellFormedUsername, RESERVED_USERNAMES } from './username.rules';
import { USER_DEACTIVATED } from './users.service';

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
  constructor(private readonly users: UserRepository) {}

  /**
   * Sets the caller's username once. The conditional UPDATE and the unique index make it
   * race-safe: two users claiming one name get one 200 and one 409, and one user sending two
   * names at once gets one 200 and one 400. Sending the name already set answers 200 again, so a
   * client retrying after a lost response is not told it failed.
   */
  async claim(userId: string, username: string): Promise<UsernameClaimed> {
    const reserved = RESERVED_USERNAMES.has(username);
    let claimed = false;
    try {
      claimed = !reserved && (await this.users.claimUsername(userId, username));
    } catch (error) {
      if (isUniqueViolation(error, USERNAME_UNIQUE_INDEX))
        throw new ConflictException(USERNAME_TAKEN);
      throw error;
    }
    if (claimed) return { username, updated: true };
    // A request that passed the guard before a deactivation committed (docs/api.md, "Admin").
    if (!(await this.users.isActive(userId))) throw new UnauthorizedException(USER_DEACTIVATED);
    const current = await this.users.usernameOf(userId);
    if (current === username) return { username, updated: true };
    if (current !== null) throw new BadRequestException(USERNAME_ALREADY_SET);
    throw new ConflictException(reserved ? USERNAME_RESERVED : USERNAME_TAKEN);
  }

  /** False for a taken, reserved or malformed name (index `uq_users_username`). */
  async isAvailable(username: string): Promise<boolean> {
    if (!isWellFormedUsername(username) || RESERVED_USERNAMES.has(username)) return false;
    return !(await this.users.usernameTaken(username));
  }
}
