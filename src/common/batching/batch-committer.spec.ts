import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '../../database/transaction-runner';
import { BatchCommitter, type BatchOptions } from './batch-committer';

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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gathering committer (three batches at once) whose first batch, item 0, has just ended. */
async function afterOneBatch(
  maxBatch: number,
  gatherMs: number,
  more: Pick<BatchOptions, 'enough' | 'underWay'> = {},
) {
  const held = new HeldTransactions();
  const committer = new BatchCommitter(held.runner, held.commit, {
    maxBatch,
    parallel: 3,
    gatherMs,
    ...more,
  });
  const first = committer.submit(0);
  await nextTurn();
  held.endAll();
  await first;
  await nextTurn();
  return { held, committer };
}

describe('BatchCommitter', () => {
  it('should commit items submitted in one turn of the event loop together', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, held.commit, { maxBatch: 100, parallel: 3 });
    const submitted = [1, 2, 3, 4].map((item) => committer.submit(item));
    await nextTurn();
    expect(held.batches).toEqual([[1, 2, 3, 4]]);
    held.endAll();
    await Promise.all(submitted);
  });

  it('should let items that arrive one by one during a commit wait for it and share the next', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, held.commit, { maxBatch: 100, parallel: 3 });
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
    const committer = new BatchCommitter(held.runner, held.commit, { maxBatch: 20, parallel: 3 });
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
    const committer = new BatchCommitter(held.runner, held.commit, { maxBatch: 100 });
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

  it('should hold items that arrive soon after a batch ended for the gather time, then commit them together', async () => {
    const { held, committer } = await afterOneBatch(100, 50);
    const gathered = [committer.submit(1)];
    await nextTurn();
    gathered.push(committer.submit(2));
    await nextTurn();
    expect(held.batches).toEqual([[0]]);
    await sleep(70);
    expect(held.batches).toEqual([[0], [1, 2]]);
    held.endAll();
    await Promise.all(gathered);
  });

  it('should commit an item that arrives after a quiet spell at once', async () => {
    const { held, committer } = await afterOneBatch(100, 50);
    await sleep(70);
    const late = committer.submit(1);
    await nextTurn();
    expect(held.batches).toEqual([[0], [1]]);
    held.endAll();
    await late;
  });

  it('should start a gathering batch at once when a tenth of a batch waits', async () => {
    const { held, committer } = await afterOneBatch(20, 10_000);
    const gathered = [committer.submit(1)];
    await nextTurn();
    expect(held.batches).toEqual([[0]]);
    gathered.push(committer.submit(2));
    await nextTurn();
    expect(held.batches).toEqual([[0], [1, 2]]);
    held.endAll();
    await Promise.all(gathered);
  });

  it.each<[string, Pick<BatchOptions, 'enough' | 'underWay'>]>([
    ['as many items wait as it is told are enough', { enough: 3 }],
    ['every item under way waits', { underWay: () => 3 }],
  ])('should keep gathering until %s', async (_until, more) => {
    const { held, committer } = await afterOneBatch(100, 10_000, more);
    const gathered = [committer.submit(1), committer.submit(2)];
    await nextTurn();
    expect(held.batches).toEqual([[0]]);
    gathered.push(committer.submit(3));
    await nextTurn();
    expect(held.batches).toEqual([[0], [1, 2, 3]]);
    held.endAll();
    await Promise.all(gathered);
  });

  it('should gather items that arrive during a commit for the next batch rather than take them one by one', async () => {
    const held = new HeldTransactions();
    const committer = new BatchCommitter(held.runner, held.commit, { maxBatch: 100, gatherMs: 50 });
    const submitted = [committer.submit(1)];
    await nextTurn();
    submitted.push(committer.submit(2));
    held.endAll();
    await submitted[0];
    await nextTurn();
    submitted.push(committer.submit(3));
    await nextTurn();
    expect(held.batches).toEqual([[1]]);
    await sleep(70);
    expect(held.batches).toEqual([[1], [2, 3]]);
    held.endAll();
    await Promise.all(submitted);
  });
});
