import { Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { AdminOnly, CurrentUser } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { PageQueryDto } from '../common/dto/page-query.dto';
import {
  AdminErrorPage,
  AdminExecutionPage,
  AdminJobPage,
  AdminQueryPage,
  AdminUserPage,
} from './admin.mapper';
import { AdminUsageQueryDto } from '../usage/dto/usage-query.dto';
import { AdminUsagePage } from '../usage/dto/usage-responses';
import { UsageService } from '../usage/usage.service';
import { AdminListingsService } from './admin-listings.service';
import { PlatformStats, PlatformStatsService } from './platform-stats.service';
import {
  UserDeactivated,
  UserDeactivationService,
  UserReactivated,
} from './user-deactivation.service';

/** Every route here needs the admin role: 401 without credentials, 403 for other users. */
@ApiTags('admin')
@ApiCredentials()
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
  @ApiRoute({ summary: 'Platform statistics', response: PlatformStats })
  getStats(): Promise<PlatformStats> {
    return this.stats.collectStats();
  }

  @Get('queries')
  @ApiRoute({
    summary: "Every task's query with its owner, newest first",
    response: AdminQueryPage,
    errors: [422],
  })
  listQueries(@Query() query: PageQueryDto): Promise<AdminQueryPage> {
    return this.listings.listQueries(query);
  }

  @Get('executions')
  @ApiRoute({
    summary: 'All executions, newest first',
    response: AdminExecutionPage,
    errors: [422],
  })
  listExecutions(@Query() query: PageQueryDto): Promise<AdminExecutionPage> {
    return this.listings.listExecutions(query);
  }

  @Get('scheduler/jobs')
  @ApiRoute({
    summary: 'Check jobs waiting or running in the queue',
    response: AdminJobPage,
    errors: [422],
  })
  listSchedulerJobs(@Query() query: PageQueryDto): Promise<AdminJobPage> {
    return this.listings.listSchedulerJobs(query);
  }

  @Get('errors')
  @ApiRoute({ summary: 'Failed executions, newest first', response: AdminErrorPage, errors: [422] })
  listErrors(@Query() query: PageQueryDto): Promise<AdminErrorPage> {
    return this.listings.listErrors(query);
  }

  @Get('users')
  @ApiRoute({ summary: 'Users, newest first', response: AdminUserPage, errors: [422] })
  listUsers(@Query() query: PageQueryDto): Promise<AdminUserPage> {
    return this.listings.listUsers(query);
  }

  @Get('usage')
  @ApiRoute({
    summary: 'Provider usage per user in a month, highest cost first',
    response: AdminUsagePage,
    errors: [422],
  })
  listUsage(@Query() query: AdminUsageQueryDto): Promise<AdminUsagePage> {
    return this.usage.listUsers(query);
  }

  @Patch('users/:id/deactivate')
  @ApiRoute({
    summary: "Deactivate a user and pause all the user's tasks",
    response: UserDeactivated,
    errors: [400, 404, 422, 500],
  })
  deactivateUser(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<UserDeactivated> {
    return this.deactivation.deactivateUser(admin, id);
  }

  @Patch('users/:id/reactivate')
  @ApiRoute({
    summary: "Reactivate a deactivated user; the user's tasks stay paused",
    response: UserReactivated,
    errors: [404, 422],
  })
  reactivateUser(@Param('id', UuidParamPipe) id: string): Promise<UserReactivated> {
    return this.deactivation.reactivateUser(id);
  }
}
