import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '../../database/transaction-runner';

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How a `BatchCommitter` groups its items. */
export interface BatchOptions {
  /** Items in one transaction at most. */
  maxBatch: number;
  /**
   * How many batches may commit at once (default 1): callers must make concurrent batches safe
   * (the check results lock their tasks in id order).
   */
  parallel?: number;
  /**
   * How many times a batch's transaction runs when it loses a lock conflict (TransactionRunner's
   * retry) before the batch is split.
   */
  tries?: number;
  /** How long after a batch ended the next waits for more items (default 0: not at all). */
  gatherMs?: number;
  /**
   * Items waiting that are enough for a batch of their own at once, beside a running one or
   * before a gather's time is up (default a tenth of `maxBatch`).
   */
  enough?: number;
  /**
   * How many items are under way, submitted or still to be (their work is running). Once every
   * one of them waits or commits, nothing more is coming: those waiting are enough for a batch
   * at once, whatever their number. Without it, a gather always runs its time.
   */
  underWay?: () => number;
}

/**
 * Collects items submitted concurrently and commits them in one transaction per batch: under load
 * many results share a transaction, when idle each goes alone at once. A batch that fails is
 * retried item by item, so one bad item cannot take the others down with it.
 *
 * A batch starts on the event loop's next turn, so everything submitted in this one joins it.
 * While batches commit, another starts beside them (up to `parallel`) only once `enough` items
 * wait: fewer wait for a running batch's loop to take them, so results that arrive one by one
 * (checks that end apart) still share transactions rather than each taking its own.
 * With `gatherMs`, an item that arrives less than that after the last batch ended waits until
 * that much has passed, `enough` items wait, or none is still to come (`underWay`), gathering
 * those behind it: under a steady flow the batches are many items, where each would otherwise
 * commit alone between arrivals; an item that arrives after a quiet spell, or the last of a
 * burst, still goes at once.
 */
export class BatchCommitter<T> {
  private readonly pending: Array<Pending<T>> = [];
  private flushers = 0;
  private starting = false;
  /** When the last batch ended (performance.now()); -Infinity before the first. */
  private lastEnded = Number.NEGATIVE_INFINITY;
  /** The timer of a batch that gathers items before it starts. */
  private gathering: NodeJS.Timeout | null = null;
  private readonly maxBatch: number;
  private readonly parallel: number;
  private readonly tries: number | undefined;
  private readonly gatherMs: number;
  private readonly enough: number;
  private readonly underWay: (() => number) | undefined;
  /** Items in the batches committing now. */
  private committing = 0;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly commit: (manager: EntityManager, items: T[]) => Promise<void>,
    options: BatchOptions,
  ) {
    this.maxBatch = options.maxBatch;
    this.parallel = options.parallel ?? 1;
    this.tries = options.tries;
    this.gatherMs = options.gatherMs ?? 0;
    this.enough = options.enough ?? Math.ceil(options.maxBatch / 10);
    this.underWay = options.underWay;
  }

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.startBatch();
    });
  }

  /** Whether enough items wait for a batch of their own at once. */
  private enoughWaiting(): boolean {
    return this.pending.length >= this.enough;
  }

  /** Whether an item under way is neither waiting nor committing yet. */
  private moreToCome(): boolean {
    return this.underWay === undefined || this.underWay() > this.pending.length + this.committing;
  }

  private startBatch(): void {
    const enough = this.enoughWaiting() || !this.moreToCome();
    if (this.gathering !== null) {
      if (!enough) return;
      clearTimeout(this.gathering);
      this.gathering = null;
      this.starting = false;
    }
    if (this.starting || this.flushers >= this.parallel) return;
    if (this.flushers > 0 && !enough) return;
    this.starting = true;
    const start = (): void => {
      this.starting = false;
      this.gathering = null;
      if (this.pending.length === 0) return;
      this.flushers += 1;
      void this.flush();
    };
    const wait =
      this.flushers === 0 && !enough ? this.lastEnded + this.gatherMs - performance.now() : 0;
    if (wait > 0) this.gathering = setTimeout(start, wait);
    else setImmediate(start);
  }

  /**
   * Commits batches while items wait (with `gatherMs`, while enough wait: fewer gather for the
   * next batch); the last flusher out leaves none behind.
   */
  private async flush(): Promise<void> {
    try {
      do {
        const batch = this.pending.splice(0, this.maxBatch);
        this.committing += batch.length;
        // What is left may be enough for a batch beside this one.
        this.startBatch();
        try {
          await this.commitBatch(batch);
        } finally {
          this.committing -= batch.length;
        }
      } while (this.pending.length > 0 && (this.gatherMs === 0 || this.enoughWaiting()));
    } finally {
      this.flushers -= 1;
      this.lastEnded = performance.now();
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
