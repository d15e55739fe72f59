import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows, Statement } from '../database/sql-rows';

/** The key as the claim found it: taken by this request when `claim` is the one it offered. */
export interface KeyRecord {
  claim: string;
  fingerprint: string;
  responseStatus: number | null;
  responseBody: string | null;
}

/** A key as one request holds it: only the holder of `claim` keeps its answer or lets it go. */
export interface KeyClaim {
  userId: string;
  key: string;
  claim: string;
}

export interface ClaimRequest extends KeyClaim {
  fingerprint: string;
  now: Date;
  /** A key created before this has expired: a new request takes it over. */
  expiredBefore: Date;
  /** A key still unanswered since before this was left by a request that never finished. */
  abandonedBefore: Date;
}

/** A key is taken over when it expired, or when the request that held it never answered. */
const TAKE_OVER = `(k.created_at < $6 OR (k.response_status IS NULL AND k.created_at < $7))`;

function takenOver(column: string, value: string): string {
  return `${column} = CASE WHEN ${TAKE_OVER} THEN ${value} ELSE k.${column} END`;
}

const CLAIM = new Statement(
  `INSERT INTO idempotency_keys AS k (user_id, key, claim, fingerprint, created_at)
   VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (user_id, key) DO UPDATE SET
     ${takenOver('claim', 'EXCLUDED.claim')},
     ${takenOver('fingerprint', 'EXCLUDED.fingerprint')},
     ${takenOver('response_status', 'NULL')},
     ${takenOver('response_body', 'NULL')},
     ${takenOver('created_at', 'EXCLUDED.created_at')}
   RETURNING claim, fingerprint, response_status, response_body`,
);

/** The first answer kept is the key's answer: a later one does not replace it. */
const COMPLETE = new Statement(
  `UPDATE idempotency_keys SET response_status = $4, response_body = $5
   WHERE user_id = $1 AND key = $2 AND claim = $3 AND response_status IS NULL
   RETURNING true AS kept`,
);

const RELEASE = new Statement(
  `DELETE FROM idempotency_keys
   WHERE user_id = $1 AND key = $2 AND claim = $3 AND response_status IS NULL`,
);

/** At most `$3` rows are read: the caller needs to know only whether the count passes a cap. */
const COUNT_LIVE = new Statement(
  `SELECT count(*)::int AS live FROM (
     SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND created_at >= $2 LIMIT $3
   ) AS k`,
);

/**
 * A key taken over meanwhile has a new `created_at`: the lock re-reads the row and leaves it out.
 */
const DELETE_CREATED_BEFORE = new Statement(
  `WITH expired AS (
     SELECT user_id, key FROM idempotency_keys WHERE created_at < $1
     ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
   DELETE FROM idempotency_keys k USING expired
   WHERE k.user_id = expired.user_id AND k.key = expired.key
   RETURNING k.key`,
);

/** The queries on `idempotency_keys` (primary key `(user_id, key)`). */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the key, or finds the one there, in one statement: the unique key decides between
   * racing requests of any instance (a second insert waits for the first and then sees it).
   * The conflict branch always updates, so the row comes back in every case, as it stands;
   * its values change only when the key is taken over.
   */
  async claim(request: ClaimRequest): Promise<KeyRecord> {
    const rows = await queryRows<{
      claim: string;
      fingerprint: string;
      response_status: number | null;
      response_body: string | null;
    }>(this.dataSource, CLAIM, [
      request.userId,
      request.key,
      request.claim,
      request.fingerprint,
      request.now,
      request.expiredBefore,
      request.abandonedBefore,
    ]);
    const row = rows[0];
    return {
      claim: row.claim,
      fingerprint: row.fingerprint,
      responseStatus: row.response_status,
      responseBody: row.response_body,
    };
  }

  /**
   * Keeps the answer of the request that holds the key, in the caller's transaction when
   * `manager` holds one; false when there is nothing to keep it on (the key was answered
   * already, or is no longer this request's).
   */
  async complete(
    held: KeyClaim,
    status: number,
    body: string,
    manager?: EntityManager,
  ): Promise<boolean> {
    const rows = await queryRows(manager ?? this.dataSource, COMPLETE, [
      held.userId,
      held.key,
      held.claim,
      status,
      body,
    ]);
    return rows.length > 0;
  }

  /** Lets an unanswered key go (an answer that is not kept): the next request with it runs. */
  async release(held: KeyClaim): Promise<void> {
    await queryRows(this.dataSource, RELEASE, [held.userId, held.key, held.claim]);
  }

  /**
   * The user's keys created since `since`, counted up to `atMost` (the primary key's `user_id`
   * prefix finds them).
   */
  async countLive(userId: string, since: Date, atMost: number): Promise<number> {
    const rows = await queryRows<{ live: number }>(this.dataSource, COUNT_LIVE, [
      userId,
      since,
      atMost,
    ]);
    return rows[0].live;
  }

  /**
   * Removes up to `limit` keys created before `cutoff`, oldest first
   * (`ix_idempotency_keys_created_at`), passing over keys a request holds; returns how many.
   */
  async deleteCreatedBefore(cutoff: Date, limit: number): Promise<number> {
    const rows = await queryRows(this.dataSource, DELETE_CREATED_BEFORE, [cutoff, limit]);
    return rows.length;
  }
}
