import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import { UserEntity, type UserRole } from './user.entity';

export const LOCAL_SUBJECT = 'local';

/** What the latest identity-provider token says about its user. */
export interface IdentityRecord {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  role: UserRole;
}

/** The queries on `users`. */
@Injectable()
export class UserRepository {
  private readonly users: Repository<UserEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findBySubject(subject: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ clerkUserId: subject });
  }

  /**
   * Creates or updates the user of a token in one statement, so two first requests racing each
   * other end with one user. A token without an email keeps the stored email and whether it was
   * verified.
   */
  async upsertIdentity(identity: IdentityRecord): Promise<UserEntity> {
    const rows = await queryRows<{ id: string }>(
      this.users.manager,
      `INSERT INTO users (clerk_user_id, email, email_verified, role)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (clerk_user_id) DO UPDATE SET
         email = COALESCE(EXCLUDED.email, users.email),
         email_verified = CASE WHEN EXCLUDED.email IS NULL THEN users.email_verified ELSE EXCLUDED.email_verified END,
         role = EXCLUDED.role,
         updated_at = CASE
           WHEN users.email IS DISTINCT FROM COALESCE(EXCLUDED.email, users.email) OR users.role <> EXCLUDED.role
           THEN now() ELSE users.updated_at END
       RETURNING id`,
      [
        identity.subject,
        identity.email,
        identity.email !== null && identity.emailVerified,
        identity.role,
      ],
    );
    return this.users.findOneByOrFail({ id: rows[0].id });
  }

  /** The fixed, active administrator of `AUTH_DISABLED=true` instances. */
  async upsertLocalAdmin(email: string): Promise<UserEntity> {
    await this.users.query(
      `INSERT INTO users (clerk_user_id, email, role) VALUES ($1, $2, 'admin')
       ON CONFLICT (clerk_user_id) DO UPDATE SET role = 'admin', state = 'active'`,
      [LOCAL_SUBJECT, email],
    );
    return this.users.findOneByOrFail({ clerkUserId: LOCAL_SUBJECT });
  }

  /**
   * Sets a username where none is set and no user has it; true when it did. The NOT EXISTS spares
   * the usual "taken" case a failed statement (and its error log); the unique index
   * (uq_users_username) still decides when two claims race.
   */
  async claimUsername(userId: string, username: string): Promise<boolean> {
    const claimed = await queryRows<{ username: string }>(
      this.users.manager,
      `UPDATE users SET username = $1, updated_at = now()
       WHERE id = $2 AND username IS NULL AND NOT EXISTS (SELECT 1 FROM users WHERE username = $1)
       RETURNING username`,
      [username, userId],
    );
    return claimed.length > 0;
  }

  usernameTaken(username: string): Promise<boolean> {
    return this.users.existsBy({ username });
  }

  async usernameOf(userId: string): Promise<string | null> {
    const user = await this.users.findOne({ where: { id: userId }, select: { username: true } });
    return user?.username ?? null;
  }
}
