import { CHECK_RETRY_LIMIT } from '../checks/check.queue';
import { ProviderError, type CheckResult } from '../../search/search-provider';
import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import { BudgetReachedError } from './check-errors';
import {
  DEFAULT_CHECK_INTERVAL_MS,
  nextRunAfter,
  NO_HISTORY,
  planCheckOutcome,
  type CheckAnswer,
  type CheckOutcomeInput,
  type FinalPlan,
  type LockedTask,
} from './check-outcome';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const now = new Date('2025-03-10T12:00:00Z');
const bounds = {
  minIntervalMs: 15 * MINUTE,
  maxIntervalMs: 7 * 24 * HOUR,
  pageCheckIntervalMs: HOUR,
};

const email: NotificationConfig = { type: 'email', address: 'owner@example.com' };

function task(overrides: Partial<LockedTask> = {}): LockedTask {
  return {
    id: 'task-1',
    state: 'active',
    notify_behavior: 'once',
    notifications: [email],
    last_known_state: null,
    check_job_id: 'job-1',
    consecutive_failures: 0,
    failure_alerted: false,
    evidence: null,
    alert_execution_id: null,
    alert_policy: null,
    alert_sent_at: null,
    page_check_interval_ms: null,
    page_quiet_checks: 0,
    ...overrides,
  };
}

function result(overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    conditionMet: false,
    answer: 'Nothing yet.',
    reasoning: 'No announcement found.',
    currentState: {},
    nextCheckAt: null,
    groundingSources: [],
    values: null,
    usage: {
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      input_tokens: 10,
      output_tokens: 5,
      search_calls: 1,
      cost_usd: null,
    },
    ...overrides,
  };
}

function plan(overrides: Partial<CheckOutcomeInput> = {}) {
  return planCheckOutcome({
    task: task(),
    executionId: 'execution-1',
    outcome: result(),
    schema: null,
    history: NO_HISTORY,
    job: { id: 'job-1', retryCount: 0 },
    pageCheck: null,
    now,
    config: { alertAfterFailures: 3, scheduler: bounds },
    ...overrides,
  });
}

function final(overrides: Partial<CheckOutcomeInput> = {}): FinalPlan {
  const planned = plan(overrides);
  if (!planned.completesJob) throw new Error('expected the check to end');
  return planned;
}

describe('planCheckOutcome', () => {
  it('should complete the task and clear its schedule when a once task meets its condition', () => {
    const planned = final({ outcome: result({ conditionMet: true, currentState: { v: 2 } }) });
    expect(planned.notification).toMatchObject({ notify: true, completes_task: true });
    expect(planned.task).toMatchObject({
      state: 'completed',
      stateChanged: true,
      lastKnownState: { v: 2 },
      keepSchedule: false,
      nextRun: null,
    });
    expect(planned.deliveries).toEqual([{ event: 'condition_met', channel: 'email' }]);
  });

  it('should notify and stay active when an always task reports a changed state', () => {
    const planned = final({
      task: task({ notify_behavior: 'always', last_known_state: { v: 1 } }),
      outcome: result({ conditionMet: true, currentState: { v: 2 } }),
    });
    expect(planned.task).toMatchObject({
      state: 'active',
      stateChanged: false,
      lastKnownState: { v: 2 },
      nextRun: new Date(now.getTime() + DEFAULT_CHECK_INTERVAL_MS),
    });
    expect(planned.deliveries).toEqual([{ event: 'condition_met', channel: 'email' }]);
  });

  it('should stay silent and keep the recorded state when an always task reports the same state', () => {
    const planned = final({
      task: task({ notify_behavior: 'always', last_known_state: { v: 1 } }),
      outcome: result({ conditionMet: true, currentState: { v: 1 } }),
    });
    expect(planned.notification.reason).toBe('state_unchanged');
    expect(planned.task?.lastKnownState).toEqual({ v: 1 });
    expect(planned.deliveries).toEqual([]);
  });

  it('should keep the state and the absent schedule when a manual run ends on a paused task', () => {
    const planned = final({ task: task({ state: 'paused', check_job_id: null }) });
    expect(planned.task).toMatchObject({ state: 'paused', keepSchedule: true, nextRun: null });
    expect(planned.checkJobToRemove).toBeNull();
  });

  it('should remove the task check job when it is not the job that ran', () => {
    expect(final({ task: task({ check_job_id: 'job-0' }) }).checkJobToRemove).toBe('job-0');
    expect(final().checkJobToRemove).toBeNull();
  });

  it('should keep a paused task check job when it is not the job that ran', () => {
    expect(
      final({ task: task({ state: 'paused', check_job_id: 'job-0' }) }).checkJobToRemove,
    ).toBeNull();
  });

  it('should schedule the agent choice when it lies within the bounds', () => {
    const chosen = new Date(now.getTime() + 3 * HOUR);
    expect(final({ outcome: result({ nextCheckAt: chosen }) }).task?.nextRun).toEqual(chosen);
  });

  it('should schedule the next month when the owner reached the budget', () => {
    expect(final({ outcome: new BudgetReachedError(5) }).task?.nextRun).toEqual(
      new Date('2025-04-01T00:00:00Z'),
    );
  });

  it('should end the check when the budget is reached even on the first try', () => {
    expect(plan({ outcome: new BudgetReachedError(5) }).completesJob).toBe(true);
  });

  it('should send the job back when a retryable error is under the retry limit', () => {
    expect(plan({ outcome: new ProviderError('rate limited', true) })).toEqual({
      completesJob: false,
      message: 'rate limited',
    });
  });

  it('should fail the check on its first try when the provider throws a TypeError', () => {
    const planned = final({
      outcome: new TypeError("Cannot read properties of undefined (reading 'x')"),
    });
    expect(planned.notification).toMatchObject({ notify: false, reason: 'check_failed' });
    expect(planned.task?.nextRun).toEqual(new Date(now.getTime() + bounds.minIntervalMs));
  });

  it('should fail the check and schedule the next at the minimum when retries are exhausted', () => {
    const planned = final({
      outcome: new ProviderError('rate limited', true),
      job: { id: 'job-1', retryCount: CHECK_RETRY_LIMIT },
    });
    expect(planned.notification).toMatchObject({ notify: false, reason: 'check_failed' });
    expect(planned.task?.nextRun).toEqual(new Date(now.getTime() + bounds.minIntervalMs));
    expect(planned.task?.consecutiveFailures).toBe(1);
  });

  it('should raise check_failing when the failing streak reaches the threshold', () => {
    const planned = final({
      task: task({ consecutive_failures: 2 }),
      outcome: new ProviderError('bad request'),
    });
    expect(planned.notification.alert).toEqual({
      event: 'check_failing',
      consecutive_failures: 3,
      channels: ['email'],
    });
    expect(planned.task).toMatchObject({ consecutiveFailures: 3, failureAlerted: true });
    expect(planned.deliveries).toEqual([{ event: 'check_failing', channel: 'email' }]);
  });

  it('should raise check_recovered and reset the streak when a check succeeds after an alert', () => {
    const planned = final({ task: task({ consecutive_failures: 4, failure_alerted: true }) });
    expect(planned.notification.alert?.event).toBe('check_recovered');
    expect(planned.task).toMatchObject({ consecutiveFailures: 0, failureAlerted: false });
    expect(planned.deliveries).toEqual([{ event: 'check_recovered', channel: 'email' }]);
  });

  it('should record only the execution when the task was deleted', () => {
    expect(plan({ task: undefined })).toEqual({
      completesJob: true,
      notification: { notify: false, reason: 'task_deleted', channels: [], completes_task: false },
      verdict: {
        claimedMet: false,
        conditionMet: false,
        evidence: { distinct_domains: 0, trusted_matches: 0, satisfied: false },
        values: null,
        changes: null,
      },
      task: null,
      checkJobToRemove: null,
      deliveries: [],
    });
  });
});

describe('planCheckOutcome for a check whose verdict needs no model', () => {
  const ruled = (overrides: Partial<CheckOutcomeInput> = {}) =>
    final({ outcome: { ...result({ nextCheckAt: null }), usage: null }, ...overrides });

  it('should check again PAGE_CHECK_INTERVAL after the first check', () => {
    const planned = ruled({ pageCheck: { changed: false } });
    expect(planned.task).toMatchObject({
      nextRun: new Date(now.getTime() + HOUR),
      pagePace: { intervalMs: HOUR, quietChecks: 0 },
    });
  });

  it("should check again at the task's pace, halved after a page changed", () => {
    const planned = ruled({
      task: task({ page_check_interval_ms: 40 * MINUTE, page_quiet_checks: 2 }),
      pageCheck: { changed: true },
    });
    expect(planned.task).toMatchObject({
      nextRun: new Date(now.getTime() + 20 * MINUTE),
      pagePace: { intervalMs: 20 * MINUTE, quietChecks: 0 },
    });
  });

  it('should keep to its pace when the check failed', () => {
    const planned = final({
      task: task({ page_check_interval_ms: 30 * MINUTE, page_quiet_checks: 2 }),
      outcome: new Error('All pages failed: https://example.com/: HTTP 503'),
      pageCheck: { changed: false },
    });
    expect(planned.task).toMatchObject({
      nextRun: new Date(now.getTime() + HOUR),
      pagePace: { intervalMs: HOUR, quietChecks: 0 },
    });
  });

  it('should move the pace of a paused task that was run by hand, and leave its schedule', () => {
    const planned = ruled({ task: task({ state: 'paused' }), pageCheck: { changed: false } });
    expect(planned.task).toMatchObject({
      keepSchedule: true,
      nextRun: null,
      pagePace: { intervalMs: HOUR, quietChecks: 0 },
    });
  });

  it('should leave the pace alone for a check a model answers', () => {
    expect(final().task?.pagePace).toBeNull();
  });
});

describe('nextRunAfter', () => {
  it('should clamp to the minimum when the agent chooses too soon', () => {
    expect(nextRunAfter(now, new Date(now.getTime() + MINUTE), false, bounds)).toEqual(
      new Date(now.getTime() + bounds.minIntervalMs),
    );
  });

  it('should clamp to the maximum when the agent chooses too late', () => {
    expect(nextRunAfter(now, new Date(now.getTime() + 30 * 24 * HOUR), false, bounds)).toEqual(
      new Date(now.getTime() + bounds.maxIntervalMs),
    );
  });

  it('should fall back to the default interval when the agent gives no usable time', () => {
    const expected = new Date(now.getTime() + DEFAULT_CHECK_INTERVAL_MS);
    expect(nextRunAfter(now, null, false, bounds)).toEqual(expected);
    expect(nextRunAfter(now, new Date(Number.NaN), false, bounds)).toEqual(expected);
  });

  it('should fall back to the minimum interval when the check failed', () => {
    expect(nextRunAfter(now, null, true, bounds)).toEqual(
      new Date(now.getTime() + bounds.minIntervalMs),
    );
  });
});

describe('planCheckOutcome with values, evidence, confirmation and retraction', () => {
  const schema = {
    type: 'object' as const,
    properties: { price: { type: 'number' as const } },
  };
  const withSchema = { schema, key: 'schema-key' };
  const sources = [{ uri: 'https://shop.example.com/p', title: 'Shop' }];

  it('should record values and their changes against the previous values', () => {
    const planned = final({
      task: task({ notify_behavior: 'on_change', notifications: [email] }),
      schema: withSchema,
      history: { recent: [], previousValues: { values: { price: 10 }, schemaKey: 'schema-key' } },
      outcome: result({ values: { price: 12 } }),
    });
    expect(planned.verdict?.changes).toEqual([{ field: 'price', before: 10, after: 12 }]);
    expect(planned.deliveries).toEqual([{ event: 'values_changed', channel: 'email' }]);
  });

  it('should send nothing and never complete when an on_change task meets its condition on its baseline', () => {
    const planned = final({
      task: task({ notify_behavior: 'on_change' }),
      schema: withSchema,
      outcome: result({ conditionMet: true, values: { price: 12 } }),
    });
    expect(planned.verdict).toMatchObject({ conditionMet: true, changes: [] });
    expect(planned.deliveries).toEqual([]);
    expect(planned.task?.state).toBe('active');
  });

  it('should not count the condition as met when the evidence rule is not satisfied', () => {
    const planned = final({
      task: task({ evidence: { min_domains: 2, trusted_domains: [], confirmations: 1 } }),
      outcome: result({ conditionMet: true, groundingSources: sources }),
    });
    expect(planned.verdict).toMatchObject({
      claimedMet: true,
      conditionMet: false,
      evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: false },
    });
    expect(planned.deliveries).toEqual([]);
  });

  it('should check again after the minimum interval when a met condition waits for confirmation', () => {
    const planned = final({
      task: task({ evidence: { min_domains: 1, trusted_domains: [], confirmations: 2 } }),
      outcome: result({
        conditionMet: true,
        groundingSources: sources,
        nextCheckAt: new Date(now.getTime() + 5 * HOUR),
      }),
    });
    expect(planned.notification).toMatchObject({ reason: 'awaiting_confirmation' });
    expect(planned.task?.nextRun).toEqual(new Date(now.getTime() + bounds.minIntervalMs));
    expect(planned.deliveries).toEqual([]);
  });

  it('should notify and complete when the confirmation arrives', () => {
    const planned = final({
      task: task({ evidence: { min_domains: 1, trusted_domains: [], confirmations: 2 } }),
      history: { recent: [{ conditionMet: true, claimedMet: true }], previousValues: null },
      outcome: result({ conditionMet: true, groundingSources: sources }),
    });
    expect(planned.task).toMatchObject({ state: 'completed', alertExecutionId: 'execution-1' });
    expect(planned.deliveries).toEqual([{ event: 'condition_met', channel: 'email' }]);
  });

  it('should withdraw the standing alert and clear the state when an always task is no longer met', () => {
    const planned = final({
      task: task({
        notify_behavior: 'always',
        last_known_state: { v: 1 },
        alert_execution_id: 'execution-0',
      }),
      history: { recent: [{ conditionMet: true, claimedMet: true }], previousValues: null },
      outcome: result({ conditionMet: false }),
    });
    expect(planned.notification.retraction).toEqual({
      retracted_execution_id: 'execution-0',
      channels: ['email'],
    });
    expect(planned.task).toMatchObject({ lastKnownState: null, alertExecutionId: null });
    expect(planned.deliveries).toEqual([{ event: 'condition_retracted', channel: 'email' }]);
  });

  describe('a verdict carried by unchanged pages', () => {
    const carried = (
      conditionMet: boolean,
      values: Record<string, number> | null = null,
    ): CheckAnswer => ({
      ...result({ conditionMet, values, currentState: { v: 2 } }),
      usage: null,
      carriedFrom: { verdictExecutionId: 'execution-0', conditionMet },
    });

    it('should keep the earlier verdict and notify nothing, even when the state differs', () => {
      const planned = final({
        task: task({ notify_behavior: 'always', last_known_state: { v: 1 } }),
        schema: withSchema,
        history: { recent: [], previousValues: { values: { price: 10 }, schemaKey: 'schema-key' } },
        outcome: carried(true, { price: 12 }),
      });
      expect(planned.verdict).toMatchObject({ claimedMet: true, conditionMet: true, changes: [] });
      expect(planned.notification).toMatchObject({ notify: false, reason: 'pages_unchanged' });
      expect(planned.task).toMatchObject({ state: 'active', lastKnownState: { v: 1 } });
      expect(planned.deliveries).toEqual([]);
    });

    it('should withdraw nothing when the carried verdict is not met', () => {
      const planned = final({
        task: task({
          notify_behavior: 'always',
          last_known_state: { v: 1 },
          alert_execution_id: 'execution-0',
        }),
        history: { recent: [{ conditionMet: true, claimedMet: true }], previousValues: null },
        outcome: carried(false),
      });
      expect(planned.notification.retraction).toBeUndefined();
      expect(planned.task).toMatchObject({ alertExecutionId: 'execution-0' });
      expect(planned.deliveries).toEqual([]);
    });
  });
});
