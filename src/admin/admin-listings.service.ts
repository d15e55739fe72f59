import { Injectable } from '@nestjs/common';
import { ExecutionRepository } from '../executions/execution.repository';
import { PAGE_DEFAULT, type PageQueryDto } from '../common/dto/page-query.dto';
import { QueueRepository } from '../scheduler/queue.repository';
import { UserRepository } from '../users/user.repository';
import { UsersService } from '../users/users.service';
import {
  toAdminErrorResponse,
  toAdminExecutionResponse,
  toAdminJobResponse,
  toAdminQueryResponse,
  toAdminUserResponse,
  type AdminErrorPage,
  type AdminExecutionPage,
  type AdminJobPage,
  type AdminQueryPage,
  type AdminUserPage,
} from './admin.mapper';
import { AdminRepository } from './admin.repository';

interface Page {
  limit: number;
  offset: number;
}

function page(query: PageQueryDto): Page {
  return { limit: query.limit ?? PAGE_DEFAULT, offset: query.offset ?? 0 };
}

/** The admin lists: `{<items>: [...], total}`, newest first (docs/api.md, "Admin"). */
@Injectable()
export class AdminListingsService {
  constructor(
    private readonly admin: AdminRepository,
    private readonly executions: ExecutionRepository,
    private readonly users: UserRepository,
    private readonly usersService: UsersService,
    private readonly queue: QueueRepository,
  ) {}

  /** Every task's search query with its owner. */
  async listQueries(query: PageQueryDto): Promise<AdminQueryPage> {
    const { limit, offset } = page(query);
    const { rows, total } = await this.admin.pageOfTaskQueries(limit, offset);
    return { queries: rows.map(toAdminQueryResponse), total };
  }

  /** Served by ix_executions_created_at. */
  async listExecutions(query: PageQueryDto): Promise<AdminExecutionPage> {
    const { limit, offset } = page(query);
    const [executions, total] = await this.executions.pageNewestFirst(limit, offset);
    return { executions: executions.map(toAdminExecutionResponse), total };
  }

  /** The check jobs waiting or running in the queue itself, not what the tasks table believes. */
  async listSchedulerJobs(query: PageQueryDto): Promise<AdminJobPage> {
    const { limit, offset } = page(query);
    const { jobs, total } = await this.queue.pageOfPendingChecks(limit, offset);
    return { jobs: jobs.map(toAdminJobResponse), total };
  }

  /** Failed executions, served by ix_executions_failed_created_at. */
  async listErrors(query: PageQueryDto): Promise<AdminErrorPage> {
    const { limit, offset } = page(query);
    const [executions, total] = await this.executions.pageNewestFirst(limit, offset, true);
    return { errors: executions.map(toAdminErrorResponse), total };
  }

  async listUsers(query: PageQueryDto): Promise<AdminUserPage> {
    const { limit, offset } = page(query);
    const [users, total] = await this.users.pageNewestFirst(limit, offset);
    const byUser = await this.admin.countTasksOfUsers(users.map((user) => user.id));
    return {
      users: users.map((user) =>
        toAdminUserResponse(user, this.usersService.isAdmin(user), byUser.get(user.id) ?? 0),
      ),
      total,
    };
  }
}
