import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { UsageQueryDto } from './dto/usage-query.dto';
import { UsageService, type MonthlyUsage } from './usage.service';

@ApiTags('usage')
@ApiBearerAuth()
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  get(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: UsageQueryDto,
  ): Promise<MonthlyUsage> {
    return this.usage.monthlyUsage(caller, query.month);
  }
}
