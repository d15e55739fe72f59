import type { ExecutionEntity } from '../executions/execution.entity';
import { toExecutionResponse, type ExecutionResponse } from '../executions/execution.mapper';
import type { NotificationConfig, TaskEntity } from './task.entity';

export type TaskViewer = 'owner' | 'public';

export interface TaskResponse {
  id: string;
  user_id?: string;
  name: string;
  search_query: string;
  condition_description: string;
  state: string;
  notify_behavior: string;
  next_run: string | null;
  is_public: boolean;
  view_count: number;
  subscriber_count: number;
  forked_from_task_id: string | null;
  last_known_state: Record<string, unknown> | null;
  last_execution_id: string | null;
  last_execution: ExecutionResponse | null;
  notifications: NotificationConfig[];
  notification_email: string | null;
  webhook_url: string | null;
  state_changed_at: string;
  created_at: string;
  updated_at: string | null;
}

/**
 * The one place a task becomes an API object (design notes, "Owners and everyone else see the task
 * through one mapper"). Anyone but the owner gets no `user_id`, no notification config (emails,
 * webhook URLs, headers, secrets) and no error details.
 */
export function toTaskResponse(
  task: TaskEntity,
  viewer: TaskViewer,
  lastExecution: ExecutionEntity | null = null,
): TaskResponse {
  const owner = viewer === 'owner';
  const email = task.notifications.find((config) => config.type === 'email');
  const webhook = task.notifications.find((config) => config.type === 'webhook');
  const response: TaskResponse = {
    id: task.id,
    name: task.name,
    search_query: task.searchQuery,
    condition_description: task.conditionDescription,
    state: task.state,
    notify_behavior: task.notifyBehavior,
    next_run: task.nextRun?.toISOString() ?? null,
    is_public: task.isPublic,
    view_count: task.viewCount,
    subscriber_count: task.subscriberCount,
    forked_from_task_id: task.forkedFromTaskId,
    last_known_state: task.lastKnownState,
    last_execution_id: task.lastExecutionId,
    last_execution: lastExecution ? toExecutionResponse(lastExecution, viewer) : null,
    notifications: owner ? task.notifications : [],
    notification_email: owner && email?.type === 'email' ? email.address : null,
    webhook_url: owner && webhook?.type === 'webhook' ? webhook.url : null,
    state_changed_at: task.stateChangedAt.toISOString(),
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt?.toISOString() ?? null,
  };
  return owner ? { id: response.id, user_id: task.userId, ...withoutId(response) } : response;
}

function withoutId(response: TaskResponse): Omit<TaskResponse, 'id'> {
  const { id: _id, ...rest } = response;
  return rest;
}
