import { DiscoveryService } from '@nestjs/core';
import type { QueueJob } from './job-queue.service';
import type { SchedulerConfig } from './scheduler.config';

/**
 * A queue as its owning feature declares it, beside the method that works its jobs
 * (docs/architecture.md, "Queues that declare themselves"). `DeclaredQueues` creates every
 * declared queue, pulls its jobs into that method, and stops them all in one order.
 */
export interface QueueDeclaration {
  /** The pg-boss queue (`src/scheduler/queues.ts` names them for the queries on its tables). */
  name: string;
  /** What the logs call its worker ("checks", "deliveries"). */
  label: string;
  /** The queue's own retries of a job that failed or expired, with their delay in seconds. */
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** Past this a running job is taken for lost and the queue brings it back. */
  expireInSeconds: number;
  /** Jobs in flight at most in one process, fixed or read from the scheduler's config. */
  concurrency: number | ((config: SchedulerConfig) => number);
  /** Jobs asked for in one fetch at most. */
  maxFetch: number;
  /**
   * Free slots to wait for before fetching again (few large fetches beat many small ones), fixed
   * or read from the scheduler's config like `concurrency`.
   */
  minFetch: number | ((config: SchedulerConfig) => number);
  /** Pause when the queue had nothing due. */
  idleMs: number;
  /**
   * A batch whose method threw goes back to the queue (retried as soon as the database answers)
   * instead of waiting for its expiry.
   */
  failBatchOnCrash?: boolean;
}

/**
 * Works a fetched batch. `release` frees one slot early (a job finished before its batch); slots
 * not released are freed when the returned promise settles.
 */
export type QueueBatchWorker<T> = (jobs: Array<QueueJob<T>>, release: () => void) => Promise<void>;

/** The discovery key of `@WorksQueue`. */
export const QUEUE_WORKER = DiscoveryService.createDecorator<QueueDeclaration>();

/**
 * Marks the method that works the jobs of the declared queue, as immich's `@OnJob` does; the
 * scheduler discovers it, so no feature wires a worker of its own.
 */
export function WorksQueue(declaration: QueueDeclaration) {
  return <T>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<QueueBatchWorker<T>>,
  ): void => {
    QUEUE_WORKER(declaration)(target, key, descriptor);
  };
}

/**
 * Until when a worker keeps trying to hand jobs back while the database is out of reach: the
 * earliest expiry among them, after which the queue brings them back by itself.
 */
export function releaseDeadline<T>(jobs: Array<QueueJob<T>>, expireInSeconds: number): number {
  const started = Math.min(
    ...jobs.map((job) => (job.startedOn ? new Date(job.startedOn).getTime() : Date.now())),
  );
  return started + expireInSeconds * 1000;
}
