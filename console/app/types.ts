/** The API's shapes as the console reads them (docs/api.md). */
export type TaskState = 'active' | 'paused' | 'completed';
export type NotifyBehavior = 'once' | 'always' | 'on_change';
export type OutputValue = string | number | boolean | null;

export interface Source {
  uri: string;
  title: string;
}

export interface Usage {
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  cost_usd: number | null;
}

export interface Execution {
  id: string;
  task_id: string;
  status: string;
  started_at: string;
  completed_at: string | null;
  error_message: string | null;
  grounding_sources: Source[] | null;
  condition_met: boolean | null;
  claimed_met: boolean | null;
  evidence: { distinct_domains: number; trusted_matches: number; satisfied: boolean } | null;
  values: Record<string, OutputValue> | null;
  changes: Array<{ field: string; before: OutputValue; after: OutputValue }> | null;
  answer: string | null;
  reasoning: string | null;
  usage: Usage | null;
  created_at: string;
}

export type NotificationConfig = { type: string } & Record<string, unknown>;

export interface OutputSchema {
  type: 'object';
  properties: Record<string, { type: string; description?: string }>;
  required?: string[];
}

export interface Task {
  id: string;
  name: string;
  search_query: string;
  condition_description: string;
  state: TaskState;
  notify_behavior: NotifyBehavior;
  output_schema: OutputSchema | null;
  evidence: Record<string, unknown> | null;
  next_run: string | null;
  last_execution: Execution | null;
  notifications: NotificationConfig[];
  created_at: string;
}

export interface Me {
  id: string;
  email: string | null;
  is_admin: boolean;
}

export interface SendRecord {
  id: string;
  recipient: string;
  notification_type: string;
  event: string;
  status: string;
  error_message: string | null;
  created_at: string;
}

export interface TestSendResult {
  notification_type: string;
  status: string;
  error_message: string | null;
}

export interface Preview {
  condition_met: boolean;
  answer: string;
  reasoning: string;
  /** The `output_schema`'s values, when the preview was sent one. */
  values: Record<string, OutputValue> | null;
  grounding_sources: Source[];
}

export interface Suggestion {
  name: string;
  search_query: string;
  condition_description: string;
  notify_behavior: NotifyBehavior;
}

export interface UsageMonth {
  month: string;
  executions: number;
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  cost_usd: number;
  budget_usd: number | null;
}
