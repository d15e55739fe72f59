import type { PinoLogger } from 'nestjs-pino';
import type { JobQueueService, QueueJob } from './job-queue.service';

export interface QueuePullerOptions<T> {
  /** Queue to pull from. */
  queue: string;
  /** What the logs call this worker ("checks", "deliveries"). */
  label: string;
  /** Jobs in flight at most. */
  capacity: number;
  /** Jobs asked for in one fetch at most. */
  maxFetch: number;
  /** Free slots to wait for before fetching again (few large fetches beat many small ones). */
  minFetch: number;
  /** Pause when the queue had nothing due. */
  idleMs: number;
  /**
   * Works a fetched batch. `release` frees one slot early (a job finished before its batch);
   * slots not released are freed when the returned promise settles.
   */
  run: (jobs: Array<QueueJob<T>>, release: () => void) => Promise<void>;
  /** Called when `run` rejects: the jobs are the ones of that batch. */
  onCrash?: (jobs: Array<QueueJob<T>>, error: unknown) => Promise<void>;
}

/**
 * Pulls jobs from a queue and keeps up to `capacity` of them in flight. The queue hands each job
 * to one worker (FOR UPDATE SKIP LOCKED), so any number of instances share the work. The check and
 * delivery workers both run on it.
 */
export class QueuePuller<T> {
  private running = false;
  private loop: Promise<void> | null = null;
  private busy = 0;
  private readonly batches = new Set<Promise<void>>();
  private wake: (() => void) | null = null;
  private waitingForSlots = false;

  constructor(
    private readonly jobQueue: JobQueueService,
    private readonly logger: PinoLogger,
    private readonly options: QueuePullerOptions<T>,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.pull();
  }

  /** Stops fetching and waits for the batches under way. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.batches]);
  }

  private async pull(): Promise<void> {
    const { capacity, maxFetch, minFetch, idleMs, queue, label } = this.options;
    while (this.running) {
      const free = capacity - this.busy;
      if (free < minFetch) {
        await this.pause(idleMs, true);
        continue;
      }
      let jobs: Array<QueueJob<T>> = [];
      try {
        jobs = await this.jobQueue.fetch<T>(queue, Math.min(free, maxFetch));
      } catch (error) {
        this.logger.warn({ err: error }, `Fetching ${label} failed`);
      }
      if (jobs.length === 0) {
        await this.pause(idleMs, false);
        continue;
      }
      this.launch(jobs);
    }
  }

  private launch(jobs: Array<QueueJob<T>>): void {
    this.busy += jobs.length;
    let released = 0;
    const release = (): void => {
      if (released >= jobs.length) return;
      released += 1;
      this.busy -= 1;
      this.wakeIfSlots();
    };
    const batch = this.options
      .run(jobs, release)
      .catch(async (error: unknown) => {
        this.logger.error({ jobs: jobs.length, err: error }, `${this.options.label} batch crashed`);
        await this.options.onCrash?.(jobs, error).catch(() => undefined);
      })
      .finally(() => {
        this.busy -= jobs.length - released;
        released = jobs.length;
        this.batches.delete(batch);
        this.wakeIfSlots();
      });
    this.batches.add(batch);
  }

  private wakeIfSlots(): void {
    if (this.waitingForSlots && this.options.capacity - this.busy >= this.options.minFetch)
      this.wake?.();
  }

  /** Waits up to `ms`; shutdown ends the wait, and so do freed slots when `forSlots`. */
  private async pause(ms: number, forSlots: boolean): Promise<void> {
    this.waitingForSlots = forSlots;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = null;
    this.waitingForSlots = false;
  }
}
