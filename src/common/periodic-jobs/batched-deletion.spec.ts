import { DELETE_BATCH, MAX_BATCHES_PER_RUN, deleteInBatches } from './batched-deletion';

describe('deleteInBatches', () => {
  it('should ask for full batches until one comes back short, and add them up', async () => {
    const answers = [DELETE_BATCH, DELETE_BATCH, 7];
    const limits: number[] = [];
    const total = await deleteInBatches((limit) => {
      limits.push(limit);
      return Promise.resolve(answers.shift() ?? 0);
    });
    expect(limits).toEqual([DELETE_BATCH, DELETE_BATCH, DELETE_BATCH]);
    expect(total).toBe(2 * DELETE_BATCH + 7);
  });

  it('should stop after MAX_BATCHES_PER_RUN when every batch is full', async () => {
    let calls = 0;
    const total = await deleteInBatches(() => {
      calls += 1;
      return Promise.resolve(DELETE_BATCH);
    });
    expect(calls).toBe(MAX_BATCHES_PER_RUN);
    expect(total).toBe(MAX_BATCHES_PER_RUN * DELETE_BATCH);
  });
});
