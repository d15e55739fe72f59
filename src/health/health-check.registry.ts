import { Injectable } from '@nestjs/common';

export type HealthCheck = () => Promise<unknown>;

/** Other modules (the job engine) register what `GET /health` must also find answering. */
@Injectable()
export class HealthCheckRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  entries(): [string, HealthCheck][] {
    return [...this.checks.entries()];
  }
}
