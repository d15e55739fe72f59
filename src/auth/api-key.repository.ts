import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { UserEntity } from '../users/user.entity';
import { ApiKeyEntity } from './api-key.entity';
import { queryRows, Statement } from '../database/sql-rows';

type KeyAndUserRow = Omit<UserEntity, 'id'> & { keyId: string; userId: string };

const ACTIVE_KEY_WITH_USER = new Statement(
  `SELECT k.id AS "keyId", u.id AS "userId", u.clerk_user_id AS "clerkUserId", u.email,
          u.username, u.email_verified AS "emailVerified", u.role, u.state,
          u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.deactivated_at AS "deactivatedAt"
   FROM api_keys k JOIN users u ON u.id = k.user_id
   WHERE k.key_hash = $1 AND k.state = 'active'`,
);

/** The queries on `api_keys`. */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's active keys, counted in the caller's transaction (ix_api_keys_user_id). */
  countActive(manager: EntityManager, userId: string): Promise<number> {
    return manager.countBy(ApiKeyEntity, { userId, state: 'active' });
  }

  /** Inserts a key in the caller's transaction. */
  insert(
    manager: EntityManager,
    key: Pick<ApiKeyEntity, 'userId' | 'name' | 'keyHash' | 'keyPrefix'>,
  ): Promise<ApiKeyEntity> {
    return manager.save(manager.create(ApiKeyEntity, { ...key, state: 'active' }));
  }

  listActive(userId: string): Promise<ApiKeyEntity[]> {
    return this.dataSource
      .getRepository(ApiKeyEntity)
      .find({ where: { userId, state: 'active' }, order: { createdAt: 'DESC' } });
  }

  /** Whether an active key of the user was revoked, in the caller's transaction. */
  async revoke(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const result = await manager.update(
      ApiKeyEntity,
      { id, userId, state: 'active' },
      { state: 'revoked', revokedAt: () => 'now()' },
    );
    return Boolean(result.affected);
  }

  /**
   * The active key with this hash and its user: the lookup of every API-key request, one indexed
   * query (uq_api_keys_key_hash) read as plain rows.
   */
  async findActiveWithUser(keyHash: string): Promise<{ keyId: string; user: UserEntity } | null> {
    const rows = await queryRows<KeyAndUserRow>(this.dataSource, ACTIVE_KEY_WITH_USER, [keyHash]);
    if (rows.length === 0) return null;
    const { keyId, userId, ...user } = rows[0];
    return { keyId, user: { id: userId, ...user } };
  }

  /** Writes the newest last-use time of each key (never moving one back). */
  async recordLastUse(uses: Array<[id: string, usedAt: Date]>): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = v.used_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, used_at)
       WHERE api_keys.id = v.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < v.used_at)`,
      [uses.map(([id]) => id), uses.map(([, usedAt]) => usedAt.toISOString())],
    );
  }
}
