import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '../../database/transaction-runner';
import { BatchCommitter } from './batch-committer';

/** Transactions that run at once and end when the test says. */
class HeldTransactions {
  readonly batches: number[][] = [];
  private readonly ends: Array<() => void> = [];

  readonly runner = {
    run: <R>(work: (manager: EntityManager) => Promise<R>) => work({} as EntityManager),
  } as unknown as TransactionRunner;

  commit = (_manager: EntityManager, items: number[]): Promise<void> => {
    this.batches.push(items);
    return new Promise((resolve) => this.ends.push(resolve));
  };

  endAll(): void {
    this.ends.splice(0).forEach((end) => end());
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchCommitter', () => {
  it('should commit items submitted in one turn of the event loop together', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, 100, held.commit, 3);
    const submitted = [1, 2, 3, 4].map((item) => committer.submit(item));
    await nextTurn();
    expect(held.batches).toEqual([[1, 2, 3, 4]]);
    held.endAll();
    await Promise.all(submitted);
  });

  it('should let items that arrive one by one during a commit wait for it and share the next', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, 100, held.commit, 3);
    const submitted = [committer.submit(1)];
    await nextTurn();
    for (const item of [2, 3, 4]) {
      submitted.push(committer.submit(item));
      await nextTurn();
    }
    expect(held.batches).toEqual([[1]]);
    held.endAll();
    await nextTurn();
    expect(held.batches).toEqual([[1], [2, 3, 4]]);
    held.endAll();
    await Promise.all(submitted);
  });

  it('should start a batch beside a running one once a tenth of a batch waits', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, 20, held.commit, 3);
    const submitted = [committer.submit(0)];
    await nextTurn();
    submitted.push(committer.submit(1), committer.submit(2));
    await nextTurn();
    expect(held.batches).toEqual([[0], [1, 2]]);
    held.endAll();
    await Promise.all(submitted);
  });

  it('should leave no item behind when one arrives as the last batch ends', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, 100, held.commit, 1);
    const first = committer.submit(1);
    await nextTurn();
    held.endAll();
    const late = first.then(() => committer.submit(2));
    await first;
    await nextTurn();
    held.endAll();
    await late;
    expect(held.batches).toEqual([[1], [2]]);
  });
});
