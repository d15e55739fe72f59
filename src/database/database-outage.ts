import { isDatabaseUnavailable } from './database-errors';

export interface OutageWait {
  /** Epoch milliseconds after which the last failure is thrown. */
  until: number;
  /** Pause between tries (default 1 s). */
  pauseMs?: number;
  /** True once the caller shuts down: the last failure is then thrown at once. */
  stopped?: () => boolean;
}

const DEFAULT_PAUSE_MS = 1_000;

/**
 * Runs `work` again, after a short pause, for as long as it fails because the database cannot
 * be reached, until `until`: work interrupted by an outage resumes as soon as the database
 * answers, not after a queue's expiry (docs/architecture.md, "A database outage is waited out").
 * Any other failure, or one past the deadline, is thrown.
 */
export async function retryWhileDatabaseUnavailable<T>(
  work: () => Promise<T>,
  wait: OutageWait,
): Promise<T> {
  const pauseMs = wait.pauseMs ?? DEFAULT_PAUSE_MS;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + pauseMs > wait.until || wait.stopped?.())
        throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
