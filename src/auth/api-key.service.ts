import { BadRequestException, Injectable, NotFoundException, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PeriodicJobs } from '../scheduler/periodic-jobs.service';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomInt } from 'node:crypto';
import type { Repository } from 'typeorm';
import type { UserEntity } from '../users/user.entity';
import { ApiKeyEntity } from './api-key.entity';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_BODY_LENGTH = 32;
const KEY_PATTERN = /^sk_[A-Za-z0-9]{32}$/;
const MAX_ACTIVE_KEYS_PER_USER = 50;
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
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.every('api-key-last-used', LAST_USED_FLUSH_MS, () => this.flushLastUsed());
  }

  async onModuleDestroy(): Promise<void> {
    await this.flushLastUsed();
  }

  async create(userId: string, name: string): Promise<CreatedApiKey> {
    const active = await this.keys.countBy({ userId, state: 'active' });
    if (active >= MAX_ACTIVE_KEYS_PER_USER) {
      throw new BadRequestException(`API key limit reached: at most ${MAX_ACTIVE_KEYS_PER_USER} active keys per user`);
    }
    const key = generateKey();
    const record = await this.keys.save(
      this.keys.create({
        userId,
        name,
        keyHash: hashApiKey(key),
        keyPrefix: `sk_...${key.slice(-5)}`,
        state: 'active',
      }),
    );
    return { record, key };
  }

  async listActive(userId: string): Promise<ApiKeyEntity[]> {
    const records = await this.keys.find({ where: { userId, state: 'active' }, order: { createdAt: 'DESC' } });
    for (const record of records) {
      const pending = this.pendingLastUsed.get(record.id);
      if (pending && (!record.lastUsedAt || record.lastUsedAt < pending)) record.lastUsedAt = pending;
    }
    return records;
  }

  async revoke(userId: string, id: string): Promise<void> {
    const result = await this.keys.update(
      { id, userId, state: 'active' },
      { state: 'revoked', revokedAt: () => 'now()' },
    );
    if (!result.affected) throw new NotFoundException('API key not found');
    this.pendingLastUsed.delete(id);
  }

  /** The active key and its user, or null: one indexed lookup, no cache, so a revocation holds at once. */
  async findActiveByKey(key: string): Promise<{ apiKey: ApiKeyEntity; user: UserEntity } | null> {
    if (!isWellFormedApiKey(key)) return null;
    const apiKey = await this.keys.findOne({
      where: { keyHash: hashApiKey(key), state: 'active' },
      relations: { user: true },
    });
    if (!apiKey?.user) return null;
    this.pendingLastUsed.set(apiKey.id, new Date());
    return { apiKey, user: apiKey.user };
  }

  async flushLastUsed(): Promise<void> {
    if (this.pendingLastUsed.size === 0) return;
    const entries = [...this.pendingLastUsed.entries()];
    this.pendingLastUsed.clear();
    try {
      await this.keys.query(
        `UPDATE api_keys SET last_used_at = v.used_at
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, used_at)
         WHERE api_keys.id = v.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < v.used_at)`,
        [entries.map(([id]) => id), entries.map(([, usedAt]) => usedAt.toISOString())],
      );
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
  for (let index = 0; index < KEY_BODY_LENGTH; index += 1) body += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return `sk_${body}`;
}
