import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type PgBoss from 'pg-boss';
import { getLoggerToken, PinoLogger } from 'nestjs-pino';
import { DeclaredQueues } from './declared-queues.service';
import { JobQueueService, type QueueJob } from './job-queue.service';
import { WorksQueue, type QueueDeclaration } from './queue-declaration';
import { schedulerConfig } from './scheduler.config';

function declaration(name: string): QueueDeclaration {
  return {
    name,
    label: name,
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    concurrency: 1,
    maxFetch: 1,
    minFetch: 1,
    idleMs: 10,
  };
}

@Injectable()
class ZuluWorker {
  @WorksQueue(declaration('zulu'))
  async work(_jobs: Array<QueueJob<unknown>>, _release: () => void): Promise<void> {}
}

@Injectable()
class AlphaWorker {
  @WorksQueue(declaration('alpha'))
  async work(_jobs: Array<QueueJob<unknown>>, _release: () => void): Promise<void> {}
}

@Injectable()
class AnotherAlphaWorker {
  @WorksQueue(declaration('alpha'))
  async work(_jobs: Array<QueueJob<unknown>>, _release: () => void): Promise<void> {}
}

/** What the declared queues asked of the job queue, and what their workers did, in order. */
const calls: string[] = [];

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A worker whose one batch runs until the test lets it end. */
@Injectable()
class SlowWorker {
  readonly started = signal();
  readonly finish = signal();

  @WorksQueue(declaration('slow'))
  async work(jobs: Array<QueueJob<unknown>>, _release: () => void): Promise<void> {
    calls.push(`work ${jobs.length} job`);
    this.started.resolve();
    await this.finish.promise;
    calls.push('work done');
  }
}

class RecordingJobQueue {
  readonly calls = calls;
  private handedOut = false;

  async fetch(queue: string): Promise<Array<Partial<QueueJob<unknown>>>> {
    if (this.handedOut) return [];
    this.handedOut = true;
    return [{ id: 'job-1', name: queue }];
  }

  async start(): Promise<void> {
    this.calls.push('start');
  }

  async createQueue(options: PgBoss.Queue): Promise<void> {
    this.calls.push(
      `create ${options.name} (${options.retryLimit} retries, ${options.expireInSeconds} s)`,
    );
  }

  async stop(): Promise<void> {
    this.calls.push('stop');
  }
}

async function declaredQueues(workers: Array<new () => object>, workerEnabled = false) {
  calls.length = 0;
  const jobQueue = new RecordingJobQueue();
  const module = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [
      DeclaredQueues,
      ...workers,
      { provide: JobQueueService, useValue: jobQueue },
      { provide: schedulerConfig.token, useValue: { workerEnabled } },
      { provide: getLoggerToken(DeclaredQueues.name), useValue: new PinoLogger({}) },
    ],
  }).compile();
  return { module, jobQueue, declared: module.get(DeclaredQueues) };
}

describe('DeclaredQueues', () => {
  it('should start the job queue, then create every declared queue by name when the module starts', async () => {
    const { module, jobQueue, declared } = await declaredQueues([ZuluWorker, AlphaWorker]);
    await module.init();
    expect(jobQueue.calls).toEqual([
      'start',
      'create alpha (3 retries, 60 s)',
      'create zulu (3 retries, 60 s)',
    ]);
    expect(declared.declarations().map((queue) => queue.name)).toEqual(['alpha', 'zulu']);
    await module.close();
    expect(jobQueue.calls.at(-1)).toBe('stop');
  });

  it('should let every worker finish its jobs under way before the job queue stops when the application closes', async () => {
    const { module } = await declaredQueues([SlowWorker], true);
    await module.init();
    const worker = module.get(SlowWorker);
    await worker.started.promise;
    const closed = module.close();
    // The workers stop in the stage before the queue's: the queue waits for the batch under way.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).not.toContain('stop');
    worker.finish.resolve();
    await closed;
    expect(calls).toEqual([
      'start',
      'create slow (3 retries, 60 s)',
      'work 1 job',
      'work done',
      'stop',
    ]);
  });

  it('should refuse to start when two workers declare the same queue', async () => {
    const { module } = await declaredQueues([AlphaWorker, AnotherAlphaWorker]);
    await expect(module.init()).rejects.toThrow('Two workers declare the queue alpha');
  });
});
