import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DatabasePingRepository } from './database-ping.repository';

export type HealthCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 3000;

/**
 * What `GET /health` must find answering: the database, and whatever other modules register
 * (the job engine).
 */
@Injectable()
export class HealthCheckRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  constructor(database: DatabasePingRepository) {
    this.register('database', () => database.ping());
  }

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** `{status: "ok", <component>: "ok"}`, or 503 with each component's state. */
  async report(): Promise<Record<string, string>> {
    const components: Record<string, string> = {};
    for (const [name, check] of this.checks) {
      components[name] = await withTimeout(check(), CHECK_TIMEOUT_MS).then(
        () => 'ok',
        () => 'unavailable',
      );
    }
    if (Object.values(components).includes('unavailable')) {
      throw new ServiceUnavailableException({
        detail: 'Service unavailable',
        status: 'unavailable',
        ...components,
      });
    }
    return { status: 'ok', ...components };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
