import { toExecutionResponse, type ExecutionResponse } from '../executions/execution.mapper';
import type { ExecutionEntity } from '../executions/execution.entity';
import type { QueueJobRow } from '../scheduler/job-queue.service';
import type { UserEntity } from '../users/user.entity';

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

export interface AdminQueryResponse extends Omit<AdminQueryRow, 'created_at'> {
  created_at: string;
}

export function toAdminQueryResponse(row: AdminQueryRow): AdminQueryResponse {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

export function toAdminExecutionResponse(execution: ExecutionEntity): ExecutionResponse {
  return toExecutionResponse(execution, 'owner');
}

export interface AdminErrorResponse extends ExecutionResponse {
  task_name: string | null;
  user_id: string | null;
}

export function toAdminErrorResponse(execution: ExecutionEntity): AdminErrorResponse {
  return {
    ...toExecutionResponse(execution, 'owner'),
    task_name: execution.task?.name ?? null,
    user_id: execution.task?.userId ?? null,
  };
}

export interface AdminJobResponse {
  job_id: string;
  task_id: string | null;
  /** Set for a run requested through the API; null for a scheduled check. */
  execution_id: string | null;
  state: string;
  /** When the queue may start the job: the task's next run. */
  start_after: string;
  started_at: string | null;
  created_at: string;
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

export interface AdminUserResponse {
  id: string;
  email: string | null;
  username: string | null;
  role: string;
  is_admin: boolean;
  state: string;
  created_at: string;
  deactivated_at: string | null;
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
