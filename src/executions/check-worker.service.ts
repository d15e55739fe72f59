import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JsonLogger } from '../common/logging/json-logger';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  CHECK_QUEUE,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../scheduler/job-queue.service';
import { CheckRunnerService } from './check-runner.service';

const IDLE_POLL_MS = 500;
const MAX_FETCH = 50;

/**
 * Pulls due checks from the queue and runs up to WORKER_CONCURRENCY at once. The queue hands each
 * job to one worker (FOR UPDATE SKIP LOCKED), so any number of instances can share the work.
 */
@Injectable()
export class CheckWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs being worked on (a batch counts once per job). */
  private busy = 0;
  private wake: (() => void) | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly runner: CheckRunnerService,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.workerEnabled) return;
    this.running = true;
    this.loop = this.pull();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async pull(): Promise<void> {
    const concurrency = this.config.workerConcurrency;
    while (this.running) {
      const free = concurrency - this.busy;
      if (free <= 0) {
        await Promise.race(this.inFlight);
        continue;
      }
      let jobs: Array<QueueJob<CheckJobData>> = [];
      try {
        jobs = await this.queue.fetch<CheckJobData>(CHECK_QUEUE, Math.min(free, MAX_FETCH));
      } catch (error) {
        this.logger.warn({ msg: 'Fetching checks failed', error: String(error) });
      }
      if (jobs.length === 0) {
        await this.idle();
        continue;
      }
      this.start(jobs);
    }
  }

  private start(jobs: Array<QueueJob<CheckJobData>>): void {
    this.busy += jobs.length;
    const batch = this.runner
      .runBatch(jobs)
      .catch(async (error: unknown) => {
        this.logger.error({ msg: 'Check batch crashed', jobs: jobs.length, error: String(error) });
        // The queue retries them; their executions are recovered by the sweeper if need be.
        await this.queue
          .fail(
            CHECK_QUEUE,
            jobs.map((job) => job.id),
            String(error),
          )
          .catch(() => undefined);
      })
      .finally(() => {
        this.busy -= jobs.length;
        this.inFlight.delete(batch);
      });
    this.inFlight.add(batch);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, IDLE_POLL_MS);
      const wake = (): void => {
        clearTimeout(timer);
        done();
      };
      function done(): void {
        resolve();
      }
      this.wake = wake;
    });
  }
}
