import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import { ExecutionEntity } from '../executions/execution.entity';
import { PAGE_DEFAULT, type PageQueryDto } from '../common/dto/page-query.dto';
import { JobQueueService } from '../scheduler/job-queue.service';
import { TaskEntity } from '../tasks/task.entity';
import { UserEntity } from '../users/user.entity';
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
  type AdminQueryRow,
  type AdminUserPage,
} from './admin.mapper';

interface Page {
  limit: number;
  offset: number;
}

function page(query: PageQueryDto): Page {
  return { limit: query.limit ?? PAGE_DEFAULT, offset: query.offset ?? 0 };
}

/** The admin lists (contract section 2, "Admin shapes"): `{<items>: [...], total}`, newest first. */
@Injectable()
export class AdminListingsService {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly usersService: UsersService,
    private readonly queue: JobQueueService,
  ) {}

  /** Every task's search query with its owner. */
  async listQueries(query: PageQueryDto): Promise<AdminQueryPage> {
    const { limit, offset } = page(query);
    const [rows, total] = await Promise.all([
      queryRows<AdminQueryRow>(
        this.tasks.manager,
        `SELECT t.id AS task_id, t.user_id, u.email AS user_email, t.name, t.search_query,
                t.condition_description, t.state, t.is_public, t.created_at
         FROM tasks t JOIN users u ON u.id = t.user_id
         ORDER BY t.created_at DESC, t.id DESC
         LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.tasks.count(),
    ]);
    return { queries: rows.map(toAdminQueryResponse), total };
  }

  /** Served by ix_executions_created_at. */
  async listExecutions(query: PageQueryDto): Promise<AdminExecutionPage> {
    const { limit, offset } = page(query);
    const [executions, total] = await this.executions.findAndCount({
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { executions: executions.map(toAdminExecutionResponse), total };
  }

  /** The check jobs waiting or running in the queue itself, not what the tasks table believes. */
  async listSchedulerJobs(query: PageQueryDto): Promise<AdminJobPage> {
    const { limit, offset } = page(query);
    const { jobs, total } = await this.queue.listJobs(limit, offset);
    return { jobs: jobs.map(toAdminJobResponse), total };
  }

  /** Failed executions, served by ix_executions_failed_created_at. */
  async listErrors(query: PageQueryDto): Promise<AdminErrorPage> {
    const { limit, offset } = page(query);
    const [executions, total] = await this.executions.findAndCount({
      where: { status: 'failed' },
      relations: { task: true },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { errors: executions.map(toAdminErrorResponse), total };
  }

  async listUsers(query: PageQueryDto): Promise<AdminUserPage> {
    const { limit, offset } = page(query);
    const [users, total] = await this.users.findAndCount({
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    // One grouped count for the page (ix_tasks_user_id_created_at), not one per user.
    const counts = await queryRows<{ user_id: string; task_count: number }>(
      this.tasks.manager,
      `SELECT user_id, count(*)::int AS task_count FROM tasks
       WHERE user_id = ANY($1::uuid[]) GROUP BY user_id`,
      [users.map((user) => user.id)],
    );
    const byUser = new Map(counts.map((row) => [row.user_id, row.task_count]));
    return {
      users: users.map((user) =>
        toAdminUserResponse(user, this.usersService.isAdmin(user), byUser.get(user.id) ?? 0),
      ),
      total,
    };
  }
}
