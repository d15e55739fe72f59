import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { isLockConflict } from './database-errors';

export interface TransactionOptions {
  /** How many times the work runs at most when it loses a lock conflict (default 4). */
  tries?: number;
}

const DEFAULT_TRIES = 4;
/** The first pause after a lost conflict; each further one doubles, with jitter. */
const FIRST_BACKOFF_MS = 10;

/**
 * The one way services open a transaction (docs/architecture.md, "One lock order"). Locks are taken
 * in one order everywhere (the user row, then task rows in id order, then their executions, jobs
 * and deliveries), which prevents most conflicts; where an order cannot be imposed (pg-boss's own
 * statements, rows reached through a cascade), a transaction that loses a deadlock or a
 * serialization failure (SQLSTATE 40P01, 40001) runs again after a short jittered pause, a few
 * times at most. The work must therefore be safe to run again: everything it decides is read inside
 * it.
 */
@Injectable()
export class TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async run<T>(
    work: (manager: EntityManager) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    const tries = options.tries ?? DEFAULT_TRIES;
    for (let tryNumber = 1; ; tryNumber++) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        if (tryNumber >= tries || !isLockConflict(error)) throw error;
        const ceiling = FIRST_BACKOFF_MS * 2 ** (tryNumber - 1);
        await new Promise((resolve) => setTimeout(resolve, ceiling / 2 + Math.random() * ceiling));
      }
    }
  }
}
