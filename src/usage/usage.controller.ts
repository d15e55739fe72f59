import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { Runs } from '../common/operations/operation';
import { MonthlyUsageResponse } from './dto/usage-responses';
import { UsageQueryDto } from './dto/usage-query.dto';
import { getUsage } from './usage.operations';
import { UsageService } from './usage.service';

@ApiTags('usage')
@ApiCredentials()
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @Runs(getUsage)
  @ApiRoute({
    summary: "The caller's provider usage and cost in a month",
    response: MonthlyUsageResponse,
    errors: [422],
  })
  get(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: UsageQueryDto,
  ): Promise<MonthlyUsageResponse> {
    return getUsage.run(this.usage, caller, {}, query);
  }
}
