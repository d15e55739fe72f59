import type { MessageEvent } from '../channels/notification-types';
import type { ExecutionContent, NotificationContent } from './notification-content';

/**
 * The JSON body of webhooks, identical for every attempt (docs/api.md, "Notifications"): the
 * execution's verdict for `task.condition_met`, its status and the streak for the failing and
 * recovered events; a test carries the task only.
 */
export function webhookBody(content: NotificationContent): string {
  return JSON.stringify(webhookPayload(content));
}

/** The webhook body of `webhookBody`, as an object (a digest gathers their `data`). */
export function webhookPayload(content: NotificationContent): {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
} {
  const { task, execution } = content;
  const data: Record<string, unknown> = {
    task: {
      id: task.id,
      name: task.name,
      search_query: task.searchQuery,
      condition_description: task.conditionDescription,
    },
  };
  // Every execution object also says what the verdict rests on (docs/api.md, "Notifications").
  const verdict = (run: ExecutionContent) => ({
    claimed_met: run.claimedMet,
    evidence: run.evidence,
    values: run.values,
    changes: run.changes,
    page_results: run.pageResults,
    verdict_execution_id: run.verdictExecutionId,
  });
  if (execution && VERDICT_EVENTS.has(content.event)) {
    data.execution = {
      id: execution.id,
      condition_met: execution.conditionMet ?? content.event === 'condition_met',
      ...verdict(execution),
      answer: execution.answer,
      reasoning: execution.reasoning,
      grounding_sources: execution.groundingSources,
      completed_at: execution.completedAt.toISOString(),
    };
    if (content.event === 'condition_retracted') {
      data.retracted_execution_id = content.retractedExecutionId;
    }
  } else if (execution) {
    data.execution = {
      id: execution.id,
      status: execution.status,
      error_message: execution.errorMessage,
      ...verdict(execution),
      completed_at: execution.completedAt.toISOString(),
    };
    data.consecutive_failures = content.consecutiveFailures;
  }
  if (content.repeat !== null) data.repeat = content.repeat;
  if (content.folded !== null) data.folded = content.folded;
  return {
    type: `task.${content.event}`,
    // The time of the event (the check), not of the attempt: `webhook-timestamp` carries that.
    timestamp: content.occurredAt.toISOString(),
    data,
  };
}

/** Events whose execution is a verdict (the others are about a failing streak). */
const VERDICT_EVENTS = new Set<MessageEvent>([
  'condition_met',
  'values_changed',
  'condition_retracted',
]);
