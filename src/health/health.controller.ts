import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { HealthCheckRegistry } from './health-check.registry';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly checks: HealthCheckRegistry) {}

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
  health(): Promise<Record<string, string>> {
    return this.checks.report();
  }
}
