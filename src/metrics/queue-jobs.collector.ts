import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { DeclaredQueues } from '../scheduler/declared-queues.service';
import { QueueRepository, type QueueJobCount } from '../scheduler/queue.repository';

/** Scrapes closer together than this share one count (Prometheus may scrape from several servers). */
const CACHE_MS = 5_000;

/** pg-boss's job states (`PgBoss.states`), so every state of our queues has a series. */
const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

/** `monitor_queue_jobs`: the queue's jobs by queue and state, counted when Prometheus scrapes. */
@Injectable()
export class QueueJobsCollector {
  private cached: { at: number; counts: Promise<QueueJobCount[]> } | null = null;

  constructor(
    private readonly queue: QueueRepository,
    private readonly declared: DeclaredQueues,
    @InjectPinoLogger(QueueJobsCollector.name) private readonly logger: PinoLogger,
  ) {}

  /** The counts, zero-filled for every declared queue; empty when the database does not answer. */
  countsByState(): Promise<QueueJobCount[]> {
    const now = Date.now();
    if (this.cached === null || now - this.cached.at >= CACHE_MS) {
      this.cached = { at: now, counts: this.count() };
    }
    return this.cached.counts;
  }

  private async count(): Promise<QueueJobCount[]> {
    let rows: QueueJobCount[];
    try {
      rows = await this.queue.countJobsByState();
    } catch (error) {
      // The scrape still answers (process metrics, counters); the gauge is absent meanwhile.
      this.logger.warn({ err: error }, 'Counting queue jobs failed');
      this.cached = null;
      return [];
    }
    const counts = new Map<string, QueueJobCount>();
    for (const { name: queue } of this.declared.declarations()) {
      for (const state of JOB_STATES) counts.set(`${queue}/${state}`, { queue, state, jobs: 0 });
    }
    for (const row of rows) counts.set(`${row.queue}/${row.state}`, row);
    return [...counts.values()];
  }
}
