import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { Preferences } from '../attention/preferences';
import { UserEntity, type UserRole } from './user.entity';

export const LOCAL_SUBJECT = 'local';

/** What the latest identity-provider token says about its user. */
export interface IdentityRecord {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  role: UserRole;
}

/**
 * How a write holds its user's row until it commits (the user row is the first lock of every
 * transaction that takes several: docs/architecture.md, "One lock order"). `share`: most writes,
 * which only need the user to stay active; they do not wait for each other. `exclusive` (FOR NO KEY
 * UPDATE): writes that serialise the user's own (a slot under the active-task cap, a deactivation).
 * Neither blocks the foreign-key checks of rows inserted for the user (usage events, send records).
 */
export type UserLockMode = 'share' | 'exclusive';

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
       ON CONFLICT (clerk_user_id) DO UPDATE SET role = 'admin', state = 'active', deactivated_at = NULL`,
      [LOCAL_SUBJECT, email],
    );
    return this.users.findOneByOrFail({ clerkUserId: LOCAL_SUBJECT });
  }

  /**
   * The users with this email (lower-cased), oldest first, but the local user of `AUTH_DISABLED`.
   */
  findByEmail(email: string): Promise<UserEntity[]> {
    return this.users
      .createQueryBuilder('u')
      .where('u.email = :email', { email })
      .andWhere('u.clerk_user_id IS DISTINCT FROM :local', { local: LOCAL_SUBJECT })
      .orderBy('u.created_at', 'ASC')
      .getMany();
  }

  /** A user without an identity-provider subject, made by the operator (`npm run create-key`). */
  insertWithoutIdentity(email: string, role: UserRole): Promise<UserEntity> {
    return this.users.save(
      this.users.create({ clerkUserId: null, email, emailVerified: true, role }),
    );
  }

  async setRole(userId: string, role: UserRole): Promise<void> {
    await this.users.update({ id: userId }, { role, updatedAt: new Date() });
  }

  /**
   * Makes the local user of `AUTH_DISABLED` an inactive, ordinary user (docs/api.md,
   * "Authentication"), keeping its data: its checks and deliveries stop, as for any inactive user.
   */
  async retireLocalUser(): Promise<void> {
    await this.users.query(
      `UPDATE users SET state = 'deactivated', role = 'user',
         deactivated_at = COALESCE(deactivated_at, now()), updated_at = now()
       WHERE clerk_user_id = $1 AND (state <> 'deactivated' OR role <> 'user')`,
      [LOCAL_SUBJECT],
    );
  }

  /**
   * Sets a username where none is set and no user has it, for an active user; true when it did.
   * The NOT EXISTS spares the usual "taken" case a failed statement (and its error log); the
   * unique index (uq_users_username) still decides when two claims race. The statement locks the
   * user row and, after a deactivation that committed meanwhile, reads `state` again: an
   * inactive user's claim changes nothing (docs/api.md, "Admin").
   */
  async claimUsername(userId: string, username: string): Promise<boolean> {
    const claimed = await queryRows<{ username: string }>(
      this.users.manager,
      `UPDATE users SET username = $1, updated_at = now()
       WHERE id = $2 AND state = 'active' AND username IS NULL
         AND NOT EXISTS (SELECT 1 FROM users WHERE username = $1)
       RETURNING username`,
      [username, userId],
    );
    return claimed.length > 0;
  }

  /** Whether the user exists and is active, read outside any transaction. */
  isActive(userId: string): Promise<boolean> {
    return this.users.existsBy({ id: userId, state: 'active' });
  }

  usernameTaken(username: string): Promise<boolean> {
    return this.users.existsBy({ username });
  }

  async usernameOf(userId: string): Promise<string | null> {
    const user = await this.users.findOne({ where: { id: userId }, select: { username: true } });
    return user?.username ?? null;
  }

  /**
   * Locks the user row in the caller's transaction; false when the user is not active (or does
   * not exist), which a request that passed the guard before a deactivation committed sees here.
   */
  async lockIfActive(manager: EntityManager, userId: string, mode: UserLockMode): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT id FROM users WHERE id = $1 AND state = 'active'
       ${mode === 'share' ? 'FOR SHARE' : 'FOR NO KEY UPDATE'}`,
      [userId],
    );
    return rows.length > 0;
  }

  /**
   * Locks a user for a deactivation or a reactivation (FOR NO KEY UPDATE); null when there is no
   * such user.
   */
  lockForStateChange(manager: EntityManager, userId: string): Promise<UserEntity | null> {
    return manager.findOne(UserEntity, {
      where: { id: userId },
      lock: { mode: 'for_no_key_update' },
    });
  }

  async markDeactivated(manager: EntityManager, userId: string, now: Date): Promise<void> {
    await manager.update(
      UserEntity,
      { id: userId },
      { state: 'deactivated', deactivatedAt: now, updatedAt: now },
    );
  }

  async markReactivated(manager: EntityManager, userId: string, now: Date): Promise<void> {
    await manager.update(
      UserEntity,
      { id: userId },
      { state: 'active', deactivatedAt: null, updatedAt: now },
    );
  }

  /** A page of users, newest first, and how many there are. */
  pageNewestFirst(limit: number, offset: number): Promise<[UserEntity[], number]> {
    return this.users.findAndCount({
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /**
   * A user's stored preferences (null: the defaults); with `manager`, locked for a change in that
   * transaction.
   */
  async preferencesOf(userId: string, manager?: EntityManager): Promise<Preferences | null> {
    const [row] = await queryRows<{ preferences: Preferences | null }>(
      manager ?? this.users.manager,
      `SELECT preferences FROM users WHERE id = $1${manager ? ' FOR NO KEY UPDATE' : ''}`,
      [userId],
    );
    return row?.preferences ?? null;
  }

  async savePreferences(
    manager: EntityManager,
    userId: string,
    preferences: Preferences,
  ): Promise<void> {
    await manager.query('UPDATE users SET preferences = $2::jsonb WHERE id = $1', [
      userId,
      JSON.stringify(preferences),
    ]);
  }
}
