import type { ProviderUsage } from '../search/provider-usage';
import type { ExecutionEntity, GroundingSource } from './execution.entity';

export interface ExecutionResponse {
  id: string;
  task_id: string;
  status: string;
  started_at: string;
  completed_at: string | null;
  result: Record<string, unknown> | null;
  error_message: string | null;
  notification: Record<string, unknown> | null;
  grounding_sources: GroundingSource[] | null;
  condition_met: boolean | null;
  answer: string | null;
  reasoning: string | null;
  usage: ProviderUsage | null;
  created_at: string;
}

export type ExecutionViewer = 'owner' | 'public';

/**
 * The one place an execution becomes an API object. Non-owners of a public task never see error
 * details or the notification decision (who was notified is the owner's business).
 */
export function toExecutionResponse(
  execution: ExecutionEntity,
  viewer: ExecutionViewer = 'owner',
): ExecutionResponse {
  const owner = viewer === 'owner';
  return {
    id: execution.id,
    task_id: execution.taskId,
    status: execution.status,
    started_at: execution.startedAt.toISOString(),
    completed_at: execution.completedAt?.toISOString() ?? null,
    result: owner ? execution.result : scrubResult(execution.result),
    error_message: owner ? execution.errorMessage : null,
    notification: owner ? execution.notification : null,
    grounding_sources: execution.groundingSources,
    condition_met: execution.conditionMet,
    answer: execution.answer,
    reasoning: execution.reasoning,
    usage: owner ? execution.usage : null,
    created_at: execution.createdAt.toISOString(),
  };
}

function scrubResult(result: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!result) return null;
  const { error: _error, raw_text: _raw, ...visible } = result;
  return visible;
}
