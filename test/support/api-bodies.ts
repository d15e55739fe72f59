/**
 * Shapes of the API's Task and Execution resources, as the tests read them: a leaf, so that the
 * factory and the task harness (test/tasks/task-api.ts) can both use them.
 */
export interface NotificationDecisionBody {
  notify: boolean;
  reason: string;
  channels: string[];
  completes_task: boolean;
}

export interface ExecutionBody {
  id: string;
  task_id: string;
  status: string;
  started_at: string;
  completed_at: string | null;
  result: Record<string, unknown> | null;
  error_message: string | null;
  notification: NotificationDecisionBody | null;
  grounding_sources: Array<{ uri: string; title: string }> | null;
  condition_met: boolean | null;
  answer: string | null;
  reasoning: string | null;
  usage: Record<string, unknown> | null;
  created_at: string;
  /** Specs read fields not listed here by name, as unknown. */
  [field: string]: unknown;
}

export interface TaskBody {
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
  last_execution: ExecutionBody | null;
  notifications: Array<Record<string, unknown>>;
  notification_email: string | null;
  webhook_url: string | null;
  state_changed_at: string;
  immediate_execution_error?: string | null;
  created_at: string;
  updated_at: string | null;
  /** Specs read fields not listed here by name, as unknown. */
  [field: string]: unknown;
}
