import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { JsonLogger } from '../common/logging/json-logger';
import { DatabaseHealthIndicator } from './database.health-indicator';

/** A terminus indicator reporting under the name it is given. */
export type HealthIndicator = (key: string) => PromiseLike<HealthIndicatorResult>;

export type ComponentState = 'ok' | 'unavailable';

/**
 * What `GET /health` must find answering: the database, and whatever other modules register
 * (the job engine registers `job_queue`). Terminus runs the indicators; the answer keeps the
 * shape of contract §1 and docs/api.md.
 */
@Injectable()
export class HealthCheckRegistry {
  private readonly indicators = new Map<string, HealthIndicator>();

  constructor(
    private readonly health: HealthCheckService,
    private readonly logger: JsonLogger,
    database: DatabaseHealthIndicator,
  ) {
    this.register('database', (key) => database.isHealthy(key));
  }

  register(name: string, indicator: HealthIndicator): void {
    this.indicators.set(name, indicator);
  }

  /** `{status: "ok", <component>: "ok"}`, or 503 with each component's state. */
  async report(): Promise<Record<string, string>> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check(
        [...this.indicators].map(
          ([name, indicator]) =>
            () =>
              indicator(name),
        ),
      );
    } catch (error) {
      // Terminus answers 503 with its own result when an indicator is down or the app stops.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const failed = error.getResponse() as HealthCheckResult;
      // The reasons (a database message, a host) go to the log only, never to the answer.
      this.logger.warn({ msg: 'Health check failed', status: failed.status, error: failed.error });
      throw new ServiceUnavailableException({
        detail: 'Service unavailable',
        status: 'unavailable',
        ...this.components(failed),
      });
    }
    return { status: 'ok', ...this.components(result) };
  }

  private components(result: HealthCheckResult): Record<string, ComponentState> {
    const components: Record<string, ComponentState> = {};
    for (const name of this.indicators.keys()) {
      const status = (result.details as Partial<HealthIndicatorResult>)[name]?.status;
      components[name] = status === 'up' || status === 'degraded' ? 'ok' : 'unavailable';
    }
    return components;
  }
}
