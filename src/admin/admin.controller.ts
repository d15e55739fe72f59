import { Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { AdminOnly, CurrentUser } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { PageQueryDto } from '../executions/dto/list-executions-query.dto';
import type { ExecutionResponse } from '../executions/execution.mapper';
import type {
  AdminErrorResponse,
  AdminJobResponse,
  AdminQueryResponse,
  AdminUserResponse,
} from './admin.mapper';
import { AdminUsageQueryDto } from '../usage/dto/usage-query.dto';
import type { UserUsageTotals } from '../usage/usage.repository';
import { UsageService } from '../usage/usage.service';
import { AdminListingsService } from './admin-listings.service';
import { PlatformStatsService, type PlatformStats } from './platform-stats.service';
import { UserDeactivationService, type UserDeactivated } from './user-deactivation.service';

/** Every route here needs the admin role: 401 without credentials, 403 for other users. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminController {
  constructor(
    private readonly stats: PlatformStatsService,
    private readonly listings: AdminListingsService,
    private readonly deactivation: UserDeactivationService,
    private readonly usage: UsageService,
  ) {}

  @Get('stats')
  getStats(): Promise<PlatformStats> {
    return this.stats.collectStats();
  }

  @Get('queries')
  listQueries(
    @Query() query: PageQueryDto,
  ): Promise<{ queries: AdminQueryResponse[]; total: number }> {
    return this.listings.listQueries(query);
  }

  @Get('executions')
  listExecutions(
    @Query() query: PageQueryDto,
  ): Promise<{ executions: ExecutionResponse[]; total: number }> {
    return this.listings.listExecutions(query);
  }

  @Get('scheduler/jobs')
  listSchedulerJobs(
    @Query() query: PageQueryDto,
  ): Promise<{ jobs: AdminJobResponse[]; total: number }> {
    return this.listings.listSchedulerJobs(query);
  }

  @Get('errors')
  listErrors(
    @Query() query: PageQueryDto,
  ): Promise<{ errors: AdminErrorResponse[]; total: number }> {
    return this.listings.listErrors(query);
  }

  @Get('users')
  listUsers(@Query() query: PageQueryDto): Promise<{ users: AdminUserResponse[]; total: number }> {
    return this.listings.listUsers(query);
  }

  @Get('usage')
  listUsage(
    @Query() query: AdminUsageQueryDto,
  ): Promise<{ users: UserUsageTotals[]; total: number }> {
    return this.usage.listUsers(query);
  }

  @Patch('users/:id/deactivate')
  deactivateUser(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<UserDeactivated> {
    return this.deactivation.deactivateUser(admin, id);
  }
}
