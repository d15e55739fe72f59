import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';

/**
 * The one way this service runs periodic work (heartbeats, sweepers, flushers), through
 * `@nestjs/schedule`'s registry: each job runs every `intervalMs`, never two runs of one job at
 * once, a failure is logged and the next run tries again, and shutdown stops the timers and waits
 * for the runs in progress before the database pool closes.
 */
@Injectable()
export class PeriodicJobs implements BeforeApplicationShutdown {
  private readonly running = new Map<string, Promise<void>>();
  private readonly names: string[] = [];

  constructor(
    private readonly registry: SchedulerRegistry,
    @InjectPinoLogger(PeriodicJobs.name) private readonly logger: PinoLogger,
  ) {}

  every(name: string, intervalMs: number, job: () => Promise<unknown>): void {
    const timer = setInterval(() => {
      if (this.running.has(name)) return;
      const run = job()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.warn({ job: name, err: error }, 'Periodic job failed'),
        )
        .finally(() => this.running.delete(name));
      this.running.set(name, run);
    }, intervalMs);
    timer.unref();
    this.registry.addInterval(name, timer);
    this.names.push(name);
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const name of this.names.splice(0)) this.registry.deleteInterval(name);
    await Promise.all(this.running.values());
  }
}
