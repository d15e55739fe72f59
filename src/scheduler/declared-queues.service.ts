import {
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../config/config-slice';
import { JobQueueService } from './job-queue.service';
import {
  QUEUE_WORKER,
  releaseDeadline,
  type QueueBatchWorker,
  type QueueDeclaration,
} from './queue-declaration';
import { QueuePuller } from './queue-puller';
import { schedulerConfig, type SchedulerConfig } from './scheduler.config';

/** A declared queue and the method that works its jobs. */
export interface DeclaredQueue<T = unknown> {
  declaration: QueueDeclaration;
  work: QueueBatchWorker<T>;
}

/**
 * The puller that feeds a declared queue's jobs to its method, with the declaration's slots and
 * fetch sizes.
 */
export function pullerOf<T>(
  queue: JobQueueService,
  logger: PinoLogger,
  config: SchedulerConfig,
  { declaration, work }: DeclaredQueue<T>,
): QueuePuller<T> {
  const { name, label, concurrency, maxFetch, minFetch, idleMs } = declaration;
  return new QueuePuller<T>(queue, logger, {
    queue: name,
    label,
    capacity: typeof concurrency === 'number' ? concurrency : concurrency(config),
    maxFetch,
    minFetch: typeof minFetch === 'number' ? minFetch : minFetch(config),
    idleMs,
    run: work,
    onCrash: declaration.failBatchOnCrash
      ? async (jobs) => {
          await queue.failOnceReachable(
            name,
            jobs.map((job) => job.id),
            'batch failed',
            releaseDeadline(jobs, declaration.expireInSeconds),
          );
        }
      : undefined,
  });
}

/**
 * Every queue a feature declares with `@WorksQueue`, found once among the providers and kept in
 * one order (by name), run through the application's life: the job queue starts and each
 * declared queue is created (or brought to this version's options) before any module sends a
 * job; the workers start once the application is up (`WORKER_ENABLED`); at shutdown every worker
 * stops fetching and finishes its jobs under way while the queue, the HTTP agents and the
 * database pool are still open, then the job queue stops (docs/architecture.md, "Queues that
 * declare themselves").
 */
@Injectable()
export class DeclaredQueues
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private queues: DeclaredQueue[] = [];
  private pullers: Array<QueuePuller<unknown>> = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly queue: JobQueueService,
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    @InjectPinoLogger(DeclaredQueues.name) private readonly logger: PinoLogger,
  ) {}

  /** The declarations, by name: what the metrics report and the order the queues run in. */
  declarations(): QueueDeclaration[] {
    return this.queues.map((queue) => queue.declaration);
  }

  async onModuleInit(): Promise<void> {
    this.queues = this.discover();
    await this.queue.start();
    for (const { declaration } of this.queues) {
      await this.queue.createQueue({
        name: declaration.name,
        policy: 'standard',
        retryLimit: declaration.retryLimit,
        retryDelay: declaration.retryDelaySeconds,
        retryBackoff: declaration.retryBackoff,
        expireInSeconds: declaration.expireInSeconds,
      });
    }
  }

  onApplicationBootstrap(): void {
    if (!this.config.workerEnabled) return;
    this.pullers = this.queues.map((declared) =>
      pullerOf(this.queue, this.logger, this.config, declared),
    );
    for (const puller of this.pullers) puller.start();
  }

  /** Every worker stops fetching at once, then each finishes and records its jobs under way. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.pullers.map((puller) => puller.stop()));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.stop();
  }

  private discover(): DeclaredQueue[] {
    const found: DeclaredQueue[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!wrapper.isDependencyTreeStatic() || typeof instance !== 'object' || instance === null)
        continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const declaration = this.discovery.getMetadataByDecorator(QUEUE_WORKER, wrapper, method);
        if (!declaration) continue;
        const work = (instance as Record<string, QueueBatchWorker<unknown>>)[method].bind(instance);
        found.push({ declaration, work });
      }
    }
    const names = found.map((queue) => queue.declaration.name);
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice) throw new Error(`Two workers declare the queue ${twice}`);
    return found.sort((a, b) => a.declaration.name.localeCompare(b.declaration.name));
  }
}
