import {
  ConflictException,
  Injectable,
  NotFoundException,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { createHash, randomInt } from 'node:crypto';
import { PeriodicJobs } from '../common/periodic-jobs/periodic-jobs.service';
import { TransactionRunner } from '../database/transaction-runner';
import type { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { Clock } from '../common/clock/clock';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_BODY_LENGTH = 32;
const KEY_PATTERN = /^sk_[A-Za-z0-9]{32}$/;
export const MAX_ACTIVE_KEYS_PER_USER = 50;
const LAST_USED_FLUSH_MS = 15_000;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export interface CreatedApiKey {
  record: ApiKeyEntity;
  key: string;
}

@Injectable()
export class ApiKeyService implements OnModuleInit, OnModuleDestroy {
  /** key id -> last use not yet written; flushed in one statement every few seconds. */
  private readonly pendingLastUsed = new Map<string, Date>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    this.jobs.every('api-key-last-used', LAST_USED_FLUSH_MS, () => this.flushLastUsed());
  }

  async onModuleDestroy(): Promise<void> {
    await this.flushLastUsed();
  }

  /**
   * A new key of an active user: 409 past 50 active keys (docs/api.md, "Authentication"). The count
   * and the insert run under the user's row, held exclusively, so keys created at once cannot pass
   * the cap.
   */
  async create(userId: string, name: string): Promise<CreatedApiKey> {
    const key = generateKey();
    const record = await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, userId, 'exclusive');
      if ((await this.keys.countActive(manager, userId)) >= MAX_ACTIVE_KEYS_PER_USER) {
        throw new ConflictException(`API key limit reached (${MAX_ACTIVE_KEYS_PER_USER})`);
      }
      return this.keys.insert(manager, {
        userId,
        name,
        keyHash: hashApiKey(key),
        keyPrefix: `sk_...${key.slice(-5)}`,
      });
    });
    return { record, key };
  }

  async listActive(userId: string): Promise<ApiKeyEntity[]> {
    const records = await this.keys.listActive(userId);
    for (const record of records) {
      const pending = this.pendingLastUsed.get(record.id);
      if (pending && (!record.lastUsedAt || record.lastUsedAt < pending))
        record.lastUsedAt = pending;
    }
    return records;
  }

  /** Revokes a key of an active user (the user row is held first, as in every write). */
  async revoke(userId: string, id: string): Promise<void> {
    const revoked = await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, userId);
      return this.keys.revoke(manager, userId, id);
    });
    if (!revoked) throw new NotFoundException('API key not found');
    this.pendingLastUsed.delete(id);
  }

  /** The active key and its user, or null: one indexed lookup, no cache, so a revocation holds at once. */
  async findActiveByKey(key: string): Promise<{ keyId: string; user: UserEntity } | null> {
    if (!isWellFormedApiKey(key)) return null;
    const found = await this.keys.findActiveWithUser(hashApiKey(key));
    if (found) this.pendingLastUsed.set(found.keyId, this.clock.now());
    return found;
  }

  async flushLastUsed(): Promise<void> {
    if (this.pendingLastUsed.size === 0) return;
    const entries = [...this.pendingLastUsed.entries()];
    this.pendingLastUsed.clear();
    try {
      await this.keys.recordLastUse(entries);
    } catch {
      // Keep the newest values for the next flush rather than lose them.
      for (const [id, usedAt] of entries) {
        const current = this.pendingLastUsed.get(id);
        if (!current || current < usedAt) this.pendingLastUsed.set(id, usedAt);
      }
    }
  }
}

function generateKey(): string {
  let body = '';
  for (let index = 0; index < KEY_BODY_LENGTH; index += 1)
    body += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return `sk_${body}`;
}
