import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty, UuidProperty } from '../common/openapi/schema-properties';
import { ExecutionResponse, toExecutionResponse } from '../executions/execution.mapper';
import type { ExecutionEntity } from '../executions/execution.entity';
import type { QueueJobRow } from '../scheduler/queue.repository';
import type { UserEntity, UserState } from '../users/user.entity';

/** API shapes of the admin endpoints. Administrators see everything, error details included. */

export interface AdminQueryRow {
  task_id: string;
  user_id: string;
  user_email: string | null;
  name: string;
  search_query: string;
  condition_description: string;
  state: string;
  is_public: boolean;
  created_at: Date;
}

export class AdminQueryResponse implements Omit<AdminQueryRow, 'created_at'> {
  @UuidProperty()
  task_id: string;

  @UuidProperty()
  user_id: string;

  @ApiProperty({ type: String, nullable: true })
  user_email: string | null;

  @ApiProperty()
  name: string;

  @ApiProperty()
  search_query: string;

  @ApiProperty()
  condition_description: string;

  @ApiProperty({ enum: ['active', 'paused', 'completed'] })
  state: string;

  @ApiProperty()
  is_public: boolean;

  @TimestampProperty()
  created_at: string;
}

export function toAdminQueryResponse(row: AdminQueryRow): AdminQueryResponse {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

export function toAdminExecutionResponse(execution: ExecutionEntity): ExecutionResponse {
  return toExecutionResponse(execution, 'owner');
}

export class AdminErrorResponse extends ExecutionResponse {
  @ApiProperty({ type: String, nullable: true })
  task_name: string | null;

  @UuidProperty({ nullable: true, description: 'The task owner' })
  user_id: string | null;
}

export function toAdminErrorResponse(execution: ExecutionEntity): AdminErrorResponse {
  return {
    ...toExecutionResponse(execution, 'owner'),
    task_name: execution.task?.name ?? null,
    user_id: execution.task?.userId ?? null,
  };
}

export class AdminJobResponse {
  @UuidProperty()
  job_id: string;

  @UuidProperty({ nullable: true })
  task_id: string | null;

  @UuidProperty({
    nullable: true,
    description: 'Set for a run requested through the API; null for a scheduled check',
  })
  execution_id: string | null;

  @ApiProperty({ description: 'The queue state of the job (created, retry, active, ...)' })
  state: string;

  @TimestampProperty({ description: "When the queue may start the job: the task's next run" })
  start_after: string;

  @TimestampProperty({ nullable: true })
  started_at: string | null;

  @TimestampProperty()
  created_at: string;

  @ApiProperty({ type: 'integer' })
  retry_count: number;
}

export function toAdminJobResponse(job: QueueJobRow): AdminJobResponse {
  return {
    job_id: job.id,
    task_id: job.data?.taskId ?? null,
    execution_id: job.data?.executionId ?? null,
    state: job.state,
    start_after: new Date(job.start_after).toISOString(),
    started_at: job.started_on ? new Date(job.started_on).toISOString() : null,
    created_at: new Date(job.created_on).toISOString(),
    retry_count: job.retry_count,
  };
}

export class AdminUserResponse {
  @UuidProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ type: String, nullable: true })
  username: string | null;

  @ApiProperty({ enum: ['user', 'admin'] })
  role: 'user' | 'admin';

  @ApiProperty()
  is_admin: boolean;

  @ApiProperty({ enum: ['active', 'deactivated'] })
  state: UserState;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty({ nullable: true })
  deactivated_at: string | null;

  @ApiProperty({ type: 'integer' })
  task_count: number;
}

export function toAdminUserResponse(
  user: UserEntity,
  isAdmin: boolean,
  taskCount: number,
): AdminUserResponse {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    role: isAdmin ? 'admin' : 'user',
    is_admin: isAdmin,
    state: user.state,
    created_at: user.createdAt.toISOString(),
    deactivated_at: user.deactivatedAt?.toISOString() ?? null,
    task_count: taskCount,
  };
}

/** The admin lists answer `{<items>, total}` (docs/api.md, "Admin"). */
export class AdminQueryPage {
  @ApiProperty({ type: [AdminQueryResponse] })
  queries: AdminQueryResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}

export class AdminExecutionPage {
  @ApiProperty({ type: [ExecutionResponse] })
  executions: ExecutionResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}

export class AdminJobPage {
  @ApiProperty({ type: [AdminJobResponse] })
  jobs: AdminJobResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}

export class AdminErrorPage {
  @ApiProperty({ type: [AdminErrorResponse] })
  errors: AdminErrorResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}

export class AdminUserPage {
  @ApiProperty({ type: [AdminUserResponse] })
  users: AdminUserResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}
