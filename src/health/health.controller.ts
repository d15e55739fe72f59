import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Public } from '../common/decorators/auth.decorators';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { HealthCheckRegistry } from './health-check.registry';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly checks: HealthCheckRegistry,
  ) {}

  @Get()
  @Public()
  @ApiRoute({
    summary: 'Whether the database and the job engine answer',
    description:
      'One field per component (`database`, `job_queue`): `ok` or `unavailable`. ' +
      'The 503 body carries the same fields beside `detail`.',
    response: {
      description: 'Every component answers',
      schema: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', enum: ['ok'] } },
        additionalProperties: { type: 'string', enum: ['ok', 'unavailable'] },
      },
    },
    errors: [503],
  })
  async health(): Promise<Record<string, unknown>> {
    const components: Record<string, string> = {};
    let healthy = true;
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), 3000);
      components.database = 'ok';
    } catch {
      components.database = 'unavailable';
      healthy = false;
    }
    for (const [name, check] of this.checks.entries()) {
      try {
        await withTimeout(check(), 3000);
        components[name] = 'ok';
      } catch {
        components[name] = 'unavailable';
        healthy = false;
      }
    }
    if (!healthy) throw new ServiceUnavailableException({ detail: 'Service unavailable', status: 'unavailable', ...components });
    return { status: 'ok', ...components };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
