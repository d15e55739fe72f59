import { ConflictException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { InjectConfig } from '../config/config-slice';
import { verdictNeedsModel } from '../pages/rules/page-rule';
import { JobQueueService } from '../scheduler/job-queue.service';
import { schedulerConfig, type SchedulerConfig } from '../scheduler/scheduler.config';
import { ModelCallQuotaService } from '../usage/model-call-quota.service';
import { USER_DEACTIVATED } from '../users/users.service';
import type { TaskEntity } from './task.entity';
import type { TaskState } from './task-state';
import { TaskRepository, type NewTask, type TaskCaps } from './task.repository';
import { planTransition } from './task-state-machine';
import { tasksConfig, type TasksConfig } from './tasks.config';

const taskLimitReached = (cap: number) => new ConflictException(`Task limit reached (${cap})`);
const activeTaskLimitReached = (cap: number) =>
  new ConflictException(`Active task limit reached (${cap})`);

/**
 * `run_immediately`'s run, queued in the create's transaction; answers whether it queued one.
 * `refusal` is the 429 detail when the run's model call is past the user's limits: no run then.
 */
export type FirstRun = (
  manager: EntityManager,
  task: TaskEntity,
  refusal: string | null,
) => Promise<boolean>;

/** When a check made due by a user's change runs, and the 429 detail that deferred it. */
interface EarlyCheck {
  runAt: Date;
  refusal: string | null;
}

/**
 * A task's place under the caps (docs/api.md, "Tasks") and its scheduled check: the first one of
 * a new task, and those a user's state change adds or removes.
 */
@Injectable()
export class TaskSchedule {
  constructor(
    private readonly queue: JobQueueService,
    @InjectConfig(tasksConfig) private readonly config: TasksConfig,
    @InjectConfig(schedulerConfig) private readonly scheduler: SchedulerConfig,
    private readonly taskRows: TaskRepository,
    private readonly clock: Clock,
    private readonly modelCalls: ModelCallQuotaService,
  ) {}

  /** The caps a new task in `state` takes a place under (0: no cap). */
  capsFor(state: TaskState): TaskCaps {
    return {
      tasks: this.config.maxTasksPerUser,
      active: state === 'active' ? this.config.maxActiveTasksPerUser : 0,
    };
  }

  /** Whether an activation takes a slot under a cap (the user's row is then held exclusively). */
  get activeCapApplies(): boolean {
    return this.config.maxActiveTasksPerUser !== 0;
  }

  /** Whether a new task of the user must hold the user's row exclusively (a cap applies). */
  get taskCapApplies(): boolean {
    return this.config.maxTasksPerUser !== 0;
  }

  /** Inserts a new task under the caps: 401 when its owner was deactivated, 409 over a cap. */
  async insertTask(fields: NewTask, caps: TaskCaps, manager?: EntityManager): Promise<TaskEntity> {
    const outcome = await this.taskRows.insertForOwner(fields, caps, manager);
    if (outcome.inserted) return outcome.inserted;
    if (!outcome.ownerActive) throw new UnauthorizedException(USER_DEACTIVATED);
    if (caps.tasks !== 0 && outcome.tasks >= caps.tasks) throw taskLimitReached(caps.tasks);
    throw activeTaskLimitReached(caps.active);
  }

  /**
   * 409 when one more task, in any state, would pass `MAX_TASKS_PER_USER` (docs/api.md, "Tasks").
   * The caller holds the user's row exclusively, so concurrent creates and forks cannot both take
   * the last place.
   */
  async reserveTaskSlot(manager: EntityManager, userId: string): Promise<void> {
    const cap = this.config.maxTasksPerUser;
    if (cap === 0) return;
    const tasks = await this.taskRows.countOf(manager, userId);
    if (tasks >= cap) throw taskLimitReached(cap);
  }

  /**
   * A new task's first check: `firstRun`'s run, or for an active task a check due now (due
   * after SCHEDULER_MIN_INTERVAL when the user is past the model-call limits).
   */
  async startFirstCheck(
    manager: EntityManager,
    task: TaskEntity,
    first: { firstRun?: FirstRun; checkJobId: string | null; now: Date },
  ): Promise<void> {
    // Counted once the caps let the task in: a refused create counts nothing.
    const early = await this.countEarlyCheck(manager, task, first.now);
    const runQueued = first.firstRun ? await first.firstRun(manager, task, early.refusal) : false;
    if (task.state !== 'active' || runQueued) return;
    // The row already holds the job's id when its check is due now: no update needed.
    if (early.refusal === null && first.checkJobId !== null)
      await this.queue.scheduleCheck(manager, task.id, first.now, first.checkJobId);
    else await this.attachNewCheck(manager, task, early.runAt);
  }

  /** Applies a user-requested state change and its scheduler side in the caller's transaction. */
  async transition(manager: EntityManager, task: TaskEntity, to: TaskState): Promise<void> {
    const action = planTransition(task.state, to);
    if (action === 'none') return;
    const now = this.clock.now();
    if (action === 'remove-job') {
      await this.queue.removeCheck(manager, task.checkJobId);
      task.checkJobId = null;
      task.nextRun = null;
    }
    task.state = to;
    task.stateChangedAt = now;
    if (action === 'create-job') {
      await this.reserveActiveSlot(manager, task.userId);
      const first = await this.countEarlyCheck(manager, task, now);
      await this.attachNewCheck(manager, task, first.runAt);
    }
  }

  /** Removes a deleted task's scheduled check, in the delete's transaction. */
  async removeCheck(manager: EntityManager, task: TaskEntity): Promise<void> {
    await this.queue.removeCheck(manager, task.checkJobId);
  }

  /**
   * A check that a create or a resume makes due at once is a model call the user did not ask
   * for by route: it counts as execute's, in `RATE_LIMIT_LLM_PER_HOUR` and against the monthly
   * budget (docs/api.md, "Rate limits"). Past either it is due after `SCHEDULER_MIN_INTERVAL`
   * instead. Counted in the request's transaction, after the user's and the task's rows (the
   * lock order), so a request rolled back counts nothing. A task with a `page_rule` never calls
   * a model (docs/pages.md, "Page rules"): its check is due at once and counts nothing.
   */
  private async countEarlyCheck(
    manager: EntityManager,
    task: Pick<TaskEntity, 'userId' | 'pageRule' | 'pages' | 'notifyBehavior'>,
    now: Date,
  ): Promise<EarlyCheck> {
    if (!verdictNeedsModel(task)) return { runAt: now, refusal: null };
    const refusal = await this.modelCalls.countCall(manager, task.userId);
    if (refusal === null) return { runAt: now, refusal };
    return { runAt: new Date(now.getTime() + this.scheduler.minIntervalMs), refusal };
  }

  /**
   * 409 when one more active task would pass `MAX_ACTIVE_TASKS_PER_USER`. The caller holds the
   * user's row exclusively (taken first: docs/architecture.md, "One lock order"), which
   * serialises the user's activations, so concurrent requests cannot both take the last slot.
   */
  private async reserveActiveSlot(manager: EntityManager, userId: string): Promise<void> {
    const cap = this.config.maxActiveTasksPerUser;
    if (cap === 0) return;
    const active = await this.taskRows.countActiveOf(manager, userId);
    if (active >= cap) throw activeTaskLimitReached(cap);
  }

  private async attachNewCheck(
    manager: EntityManager,
    task: TaskEntity,
    runAt: Date,
  ): Promise<void> {
    task.checkJobId = await this.queue.scheduleCheck(manager, task.id, runAt);
    task.nextRun = runAt;
    await this.taskRows.setCheck(manager, task.id, task.checkJobId, runAt);
  }
}
