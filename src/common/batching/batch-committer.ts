import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '../../database/transaction-runner';

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Collects items submitted concurrently and commits them in one transaction per batch: under load
 * many results share a transaction, when idle each goes alone at once. A batch that fails is
 * retried item by item, so one bad item cannot take the others down with it.
 *
 * A batch starts on the event loop's next turn, so everything submitted in this one joins it.
 * While batches commit, another starts beside them (up to `parallel`) only once a tenth of a
 * batch is waiting: fewer wait for a running batch's loop to take them, so results that arrive
 * one by one (checks that end apart) still share transactions rather than each taking its own.
 */
export class BatchCommitter<T> {
  private readonly pending: Array<Pending<T>> = [];
  private flushers = 0;
  private starting = false;

  /**
   * @param parallel how many batches may commit at once: callers must make concurrent batches
   * safe (the check results lock their tasks in id order).
   * @param tries how many times a batch's transaction runs when it loses a lock conflict
   * (TransactionRunner's retry) before the batch is split.
   */
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly maxBatch: number,
    private readonly commit: (manager: EntityManager, items: T[]) => Promise<void>,
    private readonly parallel = 1,
    private readonly tries?: number,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.startBatch();
    });
  }

  private startBatch(): void {
    if (this.starting || this.flushers >= this.parallel) return;
    if (this.flushers > 0 && this.pending.length < Math.ceil(this.maxBatch / 10)) return;
    this.starting = true;
    setImmediate(() => {
      this.starting = false;
      if (this.pending.length === 0) return;
      this.flushers += 1;
      void this.flush();
    });
  }

  /** Commits batches while items wait; the last flusher out leaves none behind. */
  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        // What is left may be enough for a batch beside this one.
        this.startBatch();
        await this.commitBatch(batch);
      }
    } finally {
      this.flushers -= 1;
      if (this.pending.length > 0) this.startBatch();
    }
  }

  private async commitBatch(batch: Array<Pending<T>>): Promise<void> {
    try {
      await this.commitTogether(batch.map((entry) => entry.item));
      batch.forEach((entry) => entry.resolve());
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      for (const entry of batch) {
        try {
          await this.commitTogether([entry.item]);
          entry.resolve();
        } catch (single) {
          entry.reject(single);
        }
      }
    }
  }

  private commitTogether(items: T[]): Promise<void> {
    return this.transactions.run((manager) => this.commit(manager, items), { tries: this.tries });
  }
}
