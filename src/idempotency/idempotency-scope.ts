import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import { IdempotencyRepository, type KeyClaim } from './idempotency.repository';
import { keptBody } from './kept-answer';

/** The key a request claimed, while its route runs. */
export interface HeldKey extends KeyClaim {
  /** The route's success status: the status its answer is kept with. */
  status: number;
  /** Whether the route's unit of work kept its answer (in its last try, when it ran again). */
  answerKept: boolean;
}

/** One store for the process, whichever instance of the scope a module was given. */
const held = new AsyncLocalStorage<HeldKey>();

/**
 * The port through which the work of an `@Idempotent()` route keeps its answer: inside the
 * work's own transaction, so the answer commits with the work or not at all, and a retry after a
 * lost answer, a crash or a 5xx that came after the commit is answered again instead of doing
 * the work twice (docs/api.md, "Idempotency-Key"). The interceptor opens the scope around the
 * route; outside one (no key, an MCP call) there is nothing to keep and `keepAnswer` does nothing.
 */
@Injectable()
export class IdempotencyScope {
  constructor(private readonly keys: IdempotencyRepository) {}

  /** Runs `route` (and whatever it starts) holding `key`. */
  open<T>(key: HeldKey, route: () => T): T {
    return held.run(key, route);
  }

  /** Whether the request holds a key, so its work must keep its answer. */
  get isOpen(): boolean {
    return held.getStore() !== undefined;
  }

  /**
   * Keeps `answer` in the transaction of `manager`, as `kept` when the stored form differs from
   * what is sent (no credential is stored: `withoutCredentials`). An answer over 64 kB is not kept.
   */
  async keepAnswer(manager: EntityManager, answer: unknown, kept: unknown = answer): Promise<void> {
    const key = held.getStore();
    if (!key) return;
    const body = keptBody(answer, kept);
    key.answerKept = body !== null && (await this.keys.complete(key, key.status, body, manager));
  }
}
