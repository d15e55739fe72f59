import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { queryRows, Statement } from '../database/sql-rows';
import type { ExecutionEntity } from '../executions/execution.entity';
import { ExecutionColumns } from '../executions/execution-columns';
import { TaskEntity } from './task.entity';
import type { TaskState } from './task-state';

/** A task as the API shows it: the row and its last execution. */
export interface TaskWithLastExecution {
  task: TaskEntity;
  lastExecution: ExecutionEntity | null;
}

/** What a new task is made of; the database fills in the rest. */
export type NewTask = Pick<
  TaskEntity,
  | 'userId'
  | 'name'
  | 'searchQuery'
  | 'conditionDescription'
  | 'state'
  | 'notifyBehavior'
  | 'outputSchema'
  | 'evidence'
  | 'notifications'
  | 'pages'
  | 'pageRule'
  | 'alertPolicy'
  | 'nextRun'
  | 'stateChangedAt'
  | 'id'
  | 'checkJobId'
>;

/** The caps a new task must fit under; 0 is no cap. */
export interface TaskCaps {
  /** Tasks of the owner in any state. */
  tasks: number;
  /** Active tasks of the owner (0 for a task that is not active). */
  active: number;
}

/** A new task, or why it was not inserted: the owner is not active, or a cap is reached. */
export type InsertOutcome =
  | { inserted: TaskEntity }
  | { inserted: null; ownerActive: false }
  | { inserted: null; ownerActive: true; tasks: number; active: number };

/** Every column of a task, named as the entity names them. */
export const TASK_COLUMNS = `t.id, t.user_id AS "userId", t.name, t.search_query AS "searchQuery",
  t.condition_description AS "conditionDescription", t.state, t.notify_behavior AS "notifyBehavior",
  t.output_schema AS "outputSchema", t.evidence, t.alert_execution_id AS "alertExecutionId",
  t.alert_notified_at AS "alertNotifiedAt", t.alert_acknowledged_at AS "alertAcknowledgedAt",
  t.alert_repeats_sent AS "alertRepeatsSent", t.alert_sent_at AS "alertSentAt",
  t.alert_policy AS "alertPolicy", t.notification_failures AS "notificationFailures",
  t.next_run AS "nextRun", t.is_public AS "isPublic", t.view_count AS "viewCount",
  t.subscriber_count AS "subscriberCount", t.forked_from_task_id AS "forkedFromTaskId",
  t.last_known_state AS "lastKnownState", t.last_execution_id AS "lastExecutionId",
  t.check_job_id AS "checkJobId", t.notifications, t.pages, t.page_rule AS "pageRule",
  t.consecutive_failures AS "consecutiveFailures",
  t.failure_alerted AS "failureAlerted", t.state_changed_at AS "stateChangedAt",
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

/** The last execution, its columns prefixed `e_`. */
const LAST_EXECUTION = new ExecutionColumns('e_');
export const LAST_EXECUTION_COLUMNS = LAST_EXECUTION.select('e');

/** The tasks, each joined with its last execution. */
export const WITH_LAST_EXECUTION = `SELECT ${TASK_COLUMNS}, ${LAST_EXECUTION_COLUMNS}
  FROM tasks t LEFT JOIN executions e ON e.id = t.last_execution_id`;

/** A task's row with its last execution's columns. */
export type TaskRow = TaskEntity & Record<`e_${string}`, unknown>;

const LIST_OWNED = new Statement(
  `${WITH_LAST_EXECUTION} WHERE t.user_id = $1 AND ($2::text IS NULL OR t.state = $2)
   ORDER BY t.created_at DESC, t.id DESC LIMIT $3::int OFFSET $4::int`,
);

const BY_ID = new Statement(`${WITH_LAST_EXECUTION} WHERE t.id = $1`);

/** `insertForOwner`'s statement. */
const INSERT_FOR_OWNER = new Statement(
  `WITH owner AS (
     SELECT u.id,
       CASE WHEN $13::int = 0 THEN 0
         ELSE (SELECT count(*) FROM tasks WHERE user_id = u.id) END AS tasks,
       CASE WHEN $14::int = 0 THEN 0
         ELSE (SELECT count(*) FROM tasks WHERE user_id = u.id AND state = 'active') END AS active
     FROM users u WHERE u.id = $2 AND u.state = 'active' FOR SHARE
   ), inserted AS (
     INSERT INTO tasks AS t (id, user_id, name, search_query, condition_description, state,
       notify_behavior, notifications, next_run, state_changed_at, output_schema, evidence,
       check_job_id, pages, page_rule, alert_policy)
     SELECT $1, owner.id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $15, $16, $17, $18 FROM owner
     WHERE ($13::int = 0 OR owner.tasks < $13) AND ($14::int = 0 OR owner.active < $14)
     RETURNING ${TASK_COLUMNS}
   )
   SELECT inserted.*, NULL AS e_id, owner.tasks AS owner_tasks, owner.active AS owner_active
   FROM owner LEFT JOIN inserted ON true`,
);

/**
 * The queries on `tasks`. The read paths the API serves most (the task list and one task, with
 * their last execution) are one query each, rows read as plain objects and used as they come, no
 * entity hydration and no copy. The public side (the gallery, views, subscribers) is
 * PublicTaskRepository's.
 */
@Injectable()
export class TaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A user's tasks, newest first (ix_tasks_user_id_created_at); all of them (the per-user cap
   * bounds them) unless `page` says otherwise.
   */
  async listOwned(
    userId: string,
    state?: TaskState,
    page: { limit?: number; offset?: number } = {},
  ): Promise<TaskWithLastExecution[]> {
    const rows = await queryRows<TaskRow>(this.dataSource, LIST_OWNED, [
      userId,
      state ?? null,
      page.limit ?? null,
      page.offset ?? null,
    ]);
    return rows.map(withLastExecution);
  }

  async findById(id: string): Promise<TaskWithLastExecution | null> {
    const rows = await queryRows<TaskRow>(this.dataSource, BY_ID, [id]);
    return rows.length === 0 ? null : withLastExecution(rows[0]);
  }

  /**
   * Inserts a task in one statement when its owner is active and the caps hold. The owner's row is
   * held FOR SHARE to the end of the transaction, so a deactivation waits for the task (or the
   * task for the deactivation, and then it is not inserted). A cap of 0 is no cap and costs no
   * count; under a cap the caller holds the owner's row exclusively from an earlier statement, so
   * the counts, read by this one, see every task the owner's other requests committed. In the
   * caller's transaction when `manager` holds one.
   */
  async insertForOwner(
    task: NewTask,
    caps: TaskCaps,
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<InsertOutcome> {
    const rows = await queryRows<TaskRow & { owner_tasks: string; owner_active: string }>(
      manager,
      INSERT_FOR_OWNER,
      [
        task.id,
        task.userId,
        task.name,
        task.searchQuery,
        task.conditionDescription,
        task.state,
        task.notifyBehavior,
        JSON.stringify(task.notifications),
        task.nextRun,
        task.stateChangedAt,
        task.outputSchema === null ? null : JSON.stringify(task.outputSchema),
        task.evidence === null ? null : JSON.stringify(task.evidence),
        caps.tasks,
        caps.active,
        task.checkJobId,
        task.pages === null ? null : JSON.stringify(task.pages),
        task.pageRule === null ? null : JSON.stringify(task.pageRule),
        task.alertPolicy === null ? null : JSON.stringify(task.alertPolicy),
      ],
    );
    const row = rows[0];
    if (!row) return { inserted: null, ownerActive: false };
    if (row.id === null) {
      return {
        inserted: null,
        ownerActive: true,
        tasks: Number(row.owner_tasks),
        active: Number(row.owner_active),
      };
    }
    return { inserted: withLastExecution(row).task };
  }

  /**
   * Sets the visibility of a task the user owns; false when nothing changed. Making it public needs
   * a username, read in the same statement so a username set a moment ago counts.
   */
  async setVisibility(
    manager: EntityManager,
    taskId: string,
    userId: string,
    isPublic: boolean,
  ): Promise<boolean> {
    const updated = await queryRows<{ id: string }>(
      manager,
      `UPDATE tasks SET is_public = $3, updated_at = now()
       WHERE id = $1 AND user_id = $2
         AND (NOT $3 OR EXISTS (SELECT 1 FROM users WHERE id = $2 AND username IS NOT NULL))
       RETURNING id`,
      [taskId, userId, isPublic],
    );
    return updated.length > 0;
  }

  isOwnedBy(taskId: string, userId: string): Promise<boolean> {
    return this.dataSource.getRepository(TaskEntity).existsBy({ id: taskId, userId });
  }

  /** A task of `userId`, read outside any transaction. */
  findOwned(id: string, userId: string): Promise<TaskEntity | null> {
    return this.dataSource.getRepository(TaskEntity).findOneBy({ id, userId });
  }

  /**
   * Locks a task of `userId` in the caller's transaction: FOR NO KEY UPDATE to change it (the
   * foreign-key checks of executions and send records inserted meanwhile do not wait for it),
   * FOR UPDATE to delete it. Null when the user has no such task.
   */
  lockOwned(
    manager: EntityManager,
    id: string,
    userId: string,
    purpose: 'change' | 'delete',
  ): Promise<TaskEntity | null> {
    return manager.findOne(TaskEntity, {
      where: { id, userId },
      lock: { mode: purpose === 'delete' ? 'pessimistic_write' : 'for_no_key_update' },
    });
  }

  /**
   * Keeps a task from being deleted until the caller's transaction ends (FOR KEY SHARE), for rows
   * that refer to it; null when it is gone. Nothing but a delete waits for this lock.
   */
  keepFromDeletion(manager: EntityManager, id: string): Promise<TaskEntity | null> {
    return manager.findOne(TaskEntity, { where: { id }, lock: { mode: 'for_key_share' } });
  }

  /** Locks every task of a user in id order (FOR NO KEY UPDATE), for a deactivation. */
  lockAllOfUser(manager: EntityManager, userId: string): Promise<TaskEntity[]> {
    return manager.find(TaskEntity, {
      where: { userId },
      order: { id: 'ASC' },
      lock: { mode: 'for_no_key_update' },
    });
  }

  save(manager: EntityManager, task: TaskEntity): Promise<TaskEntity> {
    return manager.save(task);
  }

  /** The question the task's checks ask changed now, in the caller's transaction. */
  async markCheckInputsChanged(manager: EntityManager, id: string): Promise<void> {
    await manager.query('UPDATE tasks SET check_inputs_changed_at = now() WHERE id = $1', [id]);
  }

  /** Inserts a fork (a paused task, no check job) in the caller's transaction. */
  insertFork(manager: EntityManager, fields: Partial<TaskEntity>): Promise<TaskEntity> {
    return manager.save(manager.create(TaskEntity, fields));
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.delete(TaskEntity, { id });
  }

  /** Every task of the user, whatever its state (ix_tasks_user_id_created_at). */
  countOf(manager: EntityManager, userId: string): Promise<number> {
    return manager.countBy(TaskEntity, { userId });
  }

  countActiveOf(manager: EntityManager, userId: string): Promise<number> {
    return manager.countBy(TaskEntity, { userId, state: 'active' });
  }

  async setCheck(
    manager: EntityManager,
    id: string,
    checkJobId: string | null,
    nextRun: Date | null,
  ): Promise<void> {
    await manager.update(TaskEntity, { id }, { checkJobId, nextRun });
  }

  /** Pauses tasks without a check (deactivation). */
  async pause(manager: EntityManager, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await manager.update(
      TaskEntity,
      { id: In(ids) },
      { state: 'paused', stateChangedAt: now, nextRun: null, checkJobId: null, updatedAt: now },
    );
  }

  /**
   * Serialises one user's forks until the caller's transaction ends (a transaction-scoped
   * advisory lock), so two at once cannot both pick the same free name.
   */
  async lockForksOf(manager: EntityManager, userId: string): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('task-fork'), hashtext($1))", [
      userId,
    ]);
  }

  /** Which of these names the user's tasks already have (ix_tasks_user_id_created_at narrows it). */
  async namesTaken(manager: EntityManager, userId: string, names: string[]): Promise<Set<string>> {
    const taken = await queryRows<{ name: string }>(
      manager,
      'SELECT name FROM tasks WHERE user_id = $1 AND name = ANY($2::text[])',
      [userId, names],
    );
    return new Set(taken.map((row) => row.name));
  }
}

/** The row is the task (its columns named as the entity names them), with its last execution. */
export function withLastExecution(row: TaskRow): TaskWithLastExecution {
  return { task: row, lastExecution: LAST_EXECUTION.read(row) };
}
