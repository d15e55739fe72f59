/**
 * Rows one delete statement takes at most: each batch is a short statement of its own, so its
 * row locks are held for milliseconds and a request or check never waits long behind it.
 */
export const DELETE_BATCH = 500;

/** Batches one run makes at most; a larger backlog is left to the next run. */
export const MAX_BATCHES_PER_RUN = 100;

/**
 * Deletes through `deleteBatch` (which deletes at most `limit` rows and says how many) batch after
 * batch, until one comes back short or the run has made `MAX_BATCHES_PER_RUN`; returns how many
 * rows went. The statements skip rows another transaction holds (`FOR UPDATE SKIP LOCKED`), so
 * several instances running the same sweep share the work instead of waiting for each other.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const deleted = await deleteBatch(DELETE_BATCH);
    total += deleted;
    if (deleted < DELETE_BATCH) break;
  }
  return total;
}
