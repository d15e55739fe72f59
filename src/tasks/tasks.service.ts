import { isDeepStrictEqual } from 'node:util';
import { resolveAlertPolicyUpdate, validateAlertPolicy } from '../attention/alert-policy';
import { attentionConfig, type AttentionConfig } from '../attention/attention.config';
import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { InjectConfig } from '../config/config-slice';
import { isDatabaseUnavailable } from '../database/database-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { ExecutionRepository } from '../executions/execution.repository';
import { USER_DEACTIVATED, UsersService } from '../users/users.service';
import { channelOwner } from '../notifications/channels/notification-channel';
import { NotificationConfigValidator } from '../notifications/channels/notification-config.validator';
import { JobQueueService } from '../scheduler/job-queue.service';
import { schedulerConfig, type SchedulerConfig } from '../scheduler/scheduler.config';
import {
  OutputSchemaError,
  validateOutputSchema,
  type OutputSchema,
} from '../search/output-schema';
import { EvidenceRuleError, validateEvidenceRule, type EvidenceRule } from './evidence-rule';
import { validatePageRule, verdictNeedsModel } from '../pages/page-rule';
import { PageSnapshotRepository } from '../pages/page-snapshot.repository';
import {
  toPageSnapshotResponses,
  type PageSnapshotResponse,
} from '../pages/page-snapshot.response';
import { PageTargetsValidator } from '../pages/page-targets.validator';
import type { PageRule, PageTarget } from '../pages/page.types';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { UpdateTaskDto } from './dto/update-task.dto';
import { DEFAULT_TASK_NAME } from '../search/search.types';
import type { TaskEntity } from './task.entity';
import type { TaskState } from './task-state';
import { watchName, watchQuery } from './page-task-wording';
import { toTaskResponse, type TaskResponse } from './task.mapper';
import { TaskRepository, type NewTask, type TaskCaps } from './task.repository';
import { planTransition } from './task-state-machine';
import { Clock } from '../common/clock/clock';
import { ModelCallQuotaService } from '../usage/model-call-quota.service';
import { tasksConfig, type TasksConfig } from './tasks.config';

export const TASK_NOT_FOUND = 'Task not found';
/** The 500 of a state change rolled back: a fixed reason, the database's own words go to the log. */
export const TASK_STATE_CHANGE_FAILED =
  'Failed to change task state: database error. Task update rolled back.';

export const ON_CHANGE_NEEDS_SCHEMA = 'notify_behavior on_change requires an output_schema';

/**
 * A request's free-form rule field as stored: undefined leaves the task's as it is, null clears
 * it, anything else is `validate`'s reading; a broken rule (a `ruleError`) is 400
 * `Invalid <field>: <reason>`.
 */
function readRuleField<T>(
  field: string,
  value: unknown,
  validate: (value: unknown) => T,
  ruleError: new (message: string) => Error,
): T | null | undefined {
  if (value === undefined || value === null) return value;
  try {
    return validate(value);
  } catch (error) {
    if (error instanceof ruleError)
      throw new BadRequestException(`Invalid ${field}: ${error.message}`);
    throw error;
  }
}

export const readOutputSchema = (value: unknown): OutputSchema | null | undefined =>
  readRuleField('output_schema', value, validateOutputSchema, OutputSchemaError);

const readEvidenceRule = (value: unknown): EvidenceRule | null | undefined =>
  readRuleField('evidence', value, validateEvidenceRule, EvidenceRuleError);

/** A request's `page_rule` as stored: undefined leaves it, null clears it. */
const readPageRule = (value: unknown): PageRule | null | undefined =>
  value === undefined || value === null ? value : validatePageRule(value);

export const PAGE_RULE_NEEDS_PAGES = 'Invalid page_rule: a page_rule needs pages';
export const PAGE_RULE_WITH_SCHEMA =
  'Invalid page_rule: output_schema is not allowed with a page_rule';
export const PAGE_RULE_WITH_ON_CHANGE =
  'Invalid page_rule: notify_behavior on_change is not allowed with a page_rule';

/**
 * A page rule decides from the pages alone (docs/pages.md, "Page rules"): it needs pages, and
 * no model extracts values for `output_schema` or `on_change` to use.
 */
function assertPageRuleFits(
  task: Pick<TaskEntity, 'pages' | 'pageRule' | 'outputSchema' | 'notifyBehavior'>,
): void {
  if (task.pageRule === null) return;
  if (task.pages === null) throw new BadRequestException(PAGE_RULE_NEEDS_PAGES);
  if (task.outputSchema !== null) throw new BadRequestException(PAGE_RULE_WITH_SCHEMA);
  if (task.notifyBehavior === 'on_change') throw new BadRequestException(PAGE_RULE_WITH_ON_CHANGE);
}

const taskLimitReached = (cap: number) => new ConflictException(`Task limit reached (${cap})`);
const activeTaskLimitReached = (cap: number) =>
  new ConflictException(`Active task limit reached (${cap})`);

/** `on_change` compares values, so a task in that mode needs a schema to extract them. */
function assertNotifyBehaviorFits(task: Pick<TaskEntity, 'notifyBehavior' | 'outputSchema'>): void {
  if (task.notifyBehavior === 'on_change' && task.outputSchema === null) {
    throw new BadRequestException(ON_CHANGE_NEEDS_SCHEMA);
  }
}

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

@Injectable()
export class TasksService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly executions: ExecutionRepository,
    private readonly users: UsersService,
    private readonly notificationConfigs: NotificationConfigValidator,
    private readonly queue: JobQueueService,
    @InjectConfig(tasksConfig) private readonly config: TasksConfig,
    @InjectConfig(schedulerConfig) private readonly scheduler: SchedulerConfig,
    @InjectConfig(attentionConfig) private readonly attention: AttentionConfig,
    private readonly taskRows: TaskRepository,
    private readonly clock: Clock,
    private readonly modelCalls: ModelCallQuotaService,
    private readonly pageTargets: PageTargetsValidator,
    private readonly pageSnapshots: PageSnapshotRepository,
  ) {}

  /** A request's `pages` as stored (SSRF guard included): undefined leaves them, null clears them. */
  private async readPages(value: unknown): Promise<PageTarget[] | null | undefined> {
    if (value === undefined || value === null) return value;
    return this.pageTargets.validatePages(value);
  }

  /**
   * Creates a task and, when it is active, its first check (due now). `firstRun` may queue a run
   * instead (`run_immediately`); that run's result schedules the next. Either is a model call
   * made at once, counted as execute's (`countEarlyCheck`). `beforeCommit` runs last in the
   * create's transaction (the caller keeps its answer there).
   */
  async create(
    caller: AuthenticatedUser,
    dto: CreateTaskDto,
    firstRun?: FirstRun,
    beforeCommit?: (manager: EntityManager, task: TaskEntity) => Promise<void>,
  ): Promise<TaskEntity> {
    const outputSchema = readOutputSchema(dto.output_schema) ?? null;
    const evidence = readEvidenceRule(dto.evidence) ?? null;
    const notifyBehavior = dto.notify_behavior ?? 'once';
    const pageRule = readPageRule(dto.page_rule) ?? null;
    const pages = (await this.readPages(dto.pages)) ?? null;
    // The DTO asks for a search_query when there are no pages.
    const searchQuery = dto.search_query ?? watchQuery(pages!);
    assertPageRuleFits({ pages, pageRule, outputSchema, notifyBehavior });
    assertNotifyBehaviorFits({ notifyBehavior, outputSchema });
    const alertPolicy =
      dto.alert_policy === undefined
        ? null
        : validateAlertPolicy(dto.alert_policy, notifyBehavior, this.attention);
    const notifications = await this.notificationConfigs.validate(
      dto.notifications ?? [],
      channelOwner(caller.user),
    );
    const state = dto.state ?? 'active';
    const now = this.clock.now();
    // A new active task gets its first check right away: the agent picks the pace after it. A
    // `firstRun` queued instead schedules it from its result.
    const checkJobId = state === 'active' && !firstRun ? randomUUID() : null;
    const fields: NewTask = {
      id: randomUUID(),
      userId: caller.id,
      name: dto.name ?? (pages === null ? DEFAULT_TASK_NAME : watchName(pages)),
      searchQuery,
      conditionDescription: dto.condition_description ?? searchQuery,
      state,
      notifyBehavior,
      outputSchema,
      evidence,
      notifications,
      pages,
      pageRule,
      alertPolicy,
      nextRun: state === 'active' ? now : null,
      stateChangedAt: now,
      checkJobId,
    };
    const caps: TaskCaps = {
      tasks: this.config.maxTasksPerUser,
      active: state === 'active' ? this.config.maxActiveTasksPerUser : 0,
    };
    const capped = caps.tasks !== 0 || caps.active !== 0;
    // No cap to take and nothing to queue or keep: the one statement needs no transaction.
    if (!capped && state !== 'active' && !firstRun && !beforeCommit)
      return this.insertTask(fields, caps);
    return this.inTransaction(dto.state, async (manager) => {
      // A task takes a place under the caps: those of one user are taken one at a time.
      if (capped) await this.users.lockActiveUser(manager, caller.id, 'exclusive');
      const task = await this.insertTask(fields, caps, manager);
      if (state === 'active' || firstRun)
        await this.startFirstCheck(manager, task, { firstRun, checkJobId, now });
      await beforeCommit?.(manager, task);
      return task;
    });
  }

  /**
   * A new task's first check: `firstRun`'s run, or for an active task a check due now (due
   * after SCHEDULER_MIN_INTERVAL when the user is past the model-call limits).
   */
  private async startFirstCheck(
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

  /** Inserts a new task under the caps: 401 when its owner was deactivated, 409 over a cap. */
  private async insertTask(
    fields: NewTask,
    caps: TaskCaps,
    manager?: EntityManager,
  ): Promise<TaskEntity> {
    const outcome = await this.taskRows.insertForOwner(fields, caps, manager);
    if (outcome.inserted) return outcome.inserted;
    if (!outcome.ownerActive) throw new UnauthorizedException(USER_DEACTIVATED);
    if (caps.tasks !== 0 && outcome.tasks >= caps.tasks) throw taskLimitReached(caps.tasks);
    throw activeTaskLimitReached(caps.active);
  }

  async listOwn(
    caller: AuthenticatedUser,
    state?: TaskState,
    page: { limit?: number; offset?: number } = {},
  ): Promise<TaskResponse[]> {
    const tasks = await this.taskRows.listOwned(caller.id, state, page);
    return tasks.map(({ task, lastExecution }) => toTaskResponse(task, 'owner', lastExecution));
  }

  /** Owner: the full task. Anyone else: the scrubbed view of a public task, or 404. */
  async getVisible(caller: AuthenticatedUser | undefined, id: string): Promise<TaskResponse> {
    const found = await this.taskRows.findById(id);
    if (!found) throw new NotFoundException(TASK_NOT_FOUND);
    const viewer = caller?.id === found.task.userId ? 'owner' : 'public';
    if (viewer === 'public' && !found.task.isPublic) throw new NotFoundException(TASK_NOT_FOUND);
    return toTaskResponse(found.task, viewer, found.lastExecution);
  }

  async findOwned(caller: AuthenticatedUser, id: string): Promise<TaskEntity> {
    const task = await this.taskRows.findOwned(id, caller.id);
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    return task;
  }

  /** Owner only: the last good fetch of each of the task's pages, in the task's page order. */
  async pagesOf(caller: AuthenticatedUser, id: string): Promise<PageSnapshotResponse[]> {
    const task = await this.findOwned(caller, id);
    if (task.pages === null) return [];
    return toPageSnapshotResponses(task.pages, await this.pageSnapshots.findForTask(task.id));
  }

  async toResponse(task: TaskEntity): Promise<TaskResponse> {
    return (await this.toResponses([task], 'owner'))[0];
  }

  async update(caller: AuthenticatedUser, id: string, dto: UpdateTaskDto): Promise<TaskEntity> {
    const current = await this.findOwned(caller, id);
    const outputSchema = readOutputSchema(dto.output_schema);
    const evidence = readEvidenceRule(dto.evidence);
    const pageRule = readPageRule(dto.page_rule);
    const pages = await this.readPages(dto.pages);
    const notifications =
      dto.notifications === undefined
        ? undefined
        : await this.notificationConfigs.validate(
            dto.notifications,
            channelOwner(caller.user),
            current.notifications,
          );
    // An activation takes a slot under the cap: the user's row is then held exclusively.
    const capped = dto.state === 'active' && this.config.maxActiveTasksPerUser !== 0;
    return this.inTransaction(dto.state, async (manager) => {
      // Lock order (docs/architecture.md, "One lock order"): the user, the task, then its job.
      await this.users.lockActiveUser(manager, caller.id, capped ? 'exclusive' : 'share');
      const task = await this.taskRows.lockOwned(manager, id, caller.id, 'change');
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      const askedBefore = checkInputs(task);
      if (dto.name !== undefined) task.name = dto.name;
      if (dto.search_query !== undefined) task.searchQuery = dto.search_query;
      if (dto.condition_description !== undefined)
        task.conditionDescription = dto.condition_description;
      if (dto.notify_behavior !== undefined) task.notifyBehavior = dto.notify_behavior;
      if (outputSchema !== undefined) task.outputSchema = outputSchema;
      if (evidence !== undefined) task.evidence = evidence;
      if (pages !== undefined) task.pages = pages;
      // Without pages a page rule has nothing to read: clearing them clears it.
      if (pages === null) task.pageRule = null;
      if (pageRule !== undefined) task.pageRule = pageRule;
      assertPageRuleFits(task);
      assertNotifyBehaviorFits(task);
      task.alertPolicy = resolveAlertPolicyUpdate(
        dto.alert_policy,
        task.alertPolicy,
        task.notifyBehavior,
        this.attention,
      );
      if (notifications !== undefined) {
        // Saving the configs resumes paused ones and starts their counts afresh
        // (docs/attention.md, "Channels that pause themselves").
        task.notifications = notifications;
        task.notificationFailures = {};
      }
      if (dto.state !== undefined) await this.transition(manager, task, dto.state);
      task.updatedAt = this.clock.now();
      const saved = await this.taskRows.save(manager, task);
      // The pages it no longer names leave no snapshot behind (docs/pages.md, "Snapshots").
      if (pages !== undefined)
        await this.pageSnapshots.keepOnly(
          manager,
          task.id,
          (task.pages ?? []).map((page) => page.url),
        );
      if (!isDeepStrictEqual(checkInputs(task), askedBefore))
        await this.taskRows.markCheckInputsChanged(manager, task.id);
      return saved;
    });
  }

  async remove(caller: AuthenticatedUser, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      // The user, the task (FOR UPDATE: its key goes), its job, then what the delete cascades to.
      await this.users.lockActiveUser(manager, caller.id);
      const task = await this.taskRows.lockOwned(manager, id, caller.id, 'delete');
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      await this.queue.removeCheck(manager, task.checkJobId);
      await this.taskRows.delete(manager, id);
    });
  }

  /** Applies a user-requested state change and its scheduler side in the caller's transaction. */
  private async transition(manager: EntityManager, task: TaskEntity, to: TaskState): Promise<void> {
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
    task: Pick<TaskEntity, 'userId' | 'pageRule'>,
    now: Date,
  ): Promise<EarlyCheck> {
    if (!verdictNeedsModel(task)) return { runAt: now, refusal: null };
    const refusal = await this.modelCalls.countCall(manager, task.userId);
    if (refusal === null) return { runAt: now, refusal };
    return { runAt: new Date(now.getTime() + this.scheduler.minIntervalMs), refusal };
  }

  /** Whether a new task of the user must hold the user's row exclusively (a cap applies). */
  get taskCapApplies(): boolean {
    return this.config.maxTasksPerUser !== 0;
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

  /**
   * Runs a request's changes in one transaction. When the request changes the state and anything
   * fails (the scheduler, typically), everything is rolled back and the answer is the documented
   * 500 (docs/api.md, "Errors") with a fixed reason; the error itself goes to the log (the
   * filter logs the cause). An unreachable database is the filter's 503.
   */
  private async inTransaction<T>(
    stateChange: TaskState | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.transactions.run(work);
    } catch (error) {
      if (
        error instanceof HttpException ||
        stateChange === undefined ||
        isDatabaseUnavailable(error)
      ) {
        throw error;
      }
      throw new InternalServerErrorException(TASK_STATE_CHANGE_FAILED, { cause: error });
    }
  }

  /** Tasks as `viewer` sees them, each with its last execution embedded (one query for all). */
  async toResponses(tasks: TaskEntity[], viewer: 'owner' | 'public'): Promise<TaskResponse[]> {
    const ids = tasks.map((task) => task.lastExecutionId).filter((id): id is string => id !== null);
    const executions = await this.executions.findByIds(ids);
    const byId = new Map(executions.map((execution) => [execution.id, execution]));
    return tasks.map((task) =>
      toTaskResponse(
        task,
        viewer,
        task.lastExecutionId ? (byId.get(task.lastExecutionId) ?? null) : null,
      ),
    );
  }
}

/** What a task's checks ask: a page check carries no verdict given to another question. */
function checkInputs(task: TaskEntity): unknown[] {
  return [
    task.searchQuery,
    task.conditionDescription,
    task.outputSchema,
    task.pages,
    task.pageRule,
  ];
}
