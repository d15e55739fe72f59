import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';
import { verdictNeedsModel } from '../../pages/rules/page-rule';
import {
  NO_HISTORY,
  planCheckOutcome,
  type CheckHistory,
  type CheckOutcomePlan,
  type LockedTask,
} from '../decisions/check-outcome';
import { executionsConfig, type ExecutionsConfig } from '../executions.config';
import { planAlert, type AlertPlan } from '../../attention/decisions/alert-planning';
import { valuesSchemaOf, type FinishedCheck } from './claimed-check';

/** A finished check and what its outcome means. */
export interface PlannedCheck extends FinishedCheck {
  plan: CheckOutcomePlan;
  /** What the outcome means for the task's alerts; null when the check does not move its task. */
  alert: AlertPlan | null;
}

/** Plans what the outcomes of a batch mean (`planCheckOutcome`) with the settings and the time. */
@Injectable()
export class CheckPlanner {
  constructor(
    @InjectConfig(executionsConfig) private readonly executionSettings: ExecutionsConfig,
    @InjectConfig(schedulerConfig) private readonly schedulerSettings: SchedulerConfig,
    private readonly clock: Clock,
  ) {}

  /** Plans each check against its task (locked, absent when deleted) and its task's history. */
  planAll(
    items: FinishedCheck[],
    tasks: LockedTask[],
    histories: Map<string, CheckHistory>,
  ): PlannedCheck[] {
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const now = this.clock.now();
    return items.map((item) => {
      const task = taskById.get(item.check.taskId);
      const plan = planCheckOutcome({
        task,
        executionId: item.check.executionId,
        schema: valuesSchemaOf(item.check),
        history: histories.get(item.check.taskId) ?? NO_HISTORY,
        outcome: item.outcome,
        job: item.check.job,
        pageCheck: pageCheckOf(item),
        now,
        config: {
          alertAfterFailures: this.executionSettings.alertAfterFailures,
          scheduler: this.schedulerSettings,
        },
      });
      return { ...item, plan, alert: task ? alertPlanOf(task, plan, now) : null };
    });
  }
}

/**
 * What sets the pace of a check whose verdict needs no model (docs/pages.md, "When a page task is
 * checked"): whether some page changed. Null for a check a model answers.
 */
function pageCheckOf({ check, pageResults }: FinishedCheck): { changed: boolean } | null {
  if (verdictNeedsModel(check)) return null;
  return { changed: (pageResults ?? []).some((page) => page.status === 'changed') };
}

function alertPlanOf(task: LockedTask, plan: CheckOutcomePlan, now: Date): AlertPlan | null {
  if (!plan.completesJob || plan.task === null) return null;
  return planAlert({
    policy: task.alert_policy,
    notifyBehavior: task.notify_behavior,
    taskState: plan.task.state,
    alertSentAt: task.alert_sent_at,
    alertBefore: task.alert_execution_id,
    alertAfter: plan.task.alertExecutionId,
    events: plan.deliveries.map((delivery) => delivery.event),
    now,
  });
}
