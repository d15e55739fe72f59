import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { withDeadline } from '../common/clock/deadline';
import { DatabasePingRepository } from './database-ping.repository';

/** A round trip to a dependency: resolves when it answers. */
export type HealthProbe = () => Promise<unknown>;

const PROBE_TIMEOUT_MS = 3000;

export type ComponentState = 'ok' | 'unavailable';

/**
 * What `GET /health` must find answering: the database, and whatever other modules register
 * (the job engine registers `job_queue`). Terminus runs the indicators; the answer keeps the
 * shape of docs/api.md, "Operations".
 */
@Injectable()
export class HealthCheckRegistry {
  private readonly indicators = new Map<string, HealthProbe>();

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    @InjectPinoLogger(HealthCheckRegistry.name) private readonly logger: PinoLogger,
    database: DatabasePingRepository,
  ) {
    this.register('database', () => database.ping());
  }

  register(name: string, probe: HealthProbe): void {
    this.indicators.set(name, probe);
  }

  /** `{status: "ok", <component>: "ok"}`, or 503 with each component's state. */
  async report(): Promise<Record<string, string>> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check(
        [...this.indicators].map(
          ([name, probe]) =>
            () =>
              this.probe(name, probe),
        ),
      );
    } catch (error) {
      // Terminus answers 503 with its own result when an indicator is down or the app stops.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const failed = error.getResponse() as HealthCheckResult;
      // The reasons (a database message, a host) go to the log only, never to the answer.
      this.logger.warn({ status: failed.status, error: failed.error }, 'Health check failed');
      throw new ServiceUnavailableException({
        detail: 'Service unavailable',
        status: 'unavailable',
        ...this.components(failed),
      });
    }
    return { status: 'ok', ...this.components(result) };
  }

  /** A terminus indicator: up when the probe answers within the timeout, else down. */
  private async probe(name: string, probe: HealthProbe): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(name);
    try {
      await withDeadline(probe(), PROBE_TIMEOUT_MS, () => {
        throw new Error(`timed out after ${PROBE_TIMEOUT_MS} ms`);
      });
      return session.up();
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }

  private components(result: HealthCheckResult): Record<string, ComponentState> {
    const components: Record<string, ComponentState> = {};
    for (const name of this.indicators.keys()) {
      const status = (result.details as Partial<HealthIndicatorResult>)[name]?.status;
      components[name] = status === 'up' ? 'ok' : 'unavailable';
    }
    return components;
  }
}
