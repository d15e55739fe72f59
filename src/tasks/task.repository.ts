import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { ExecutionEntity } from '../executions/execution.entity';
import { ExecutionColumns } from '../executions/execution-columns';
import { TaskEntity, type TaskState } from './task.entity';

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
  | 'notifications'
  | 'nextRun'
  | 'stateChangedAt'
>;

/** Every column of a task, named as the entity names them. */
const TASK_COLUMNS = `t.id, t.user_id AS "userId", t.name, t.search_query AS "searchQuery",
  t.condition_description AS "conditionDescription", t.state, t.notify_behavior AS "notifyBehavior",
  t.next_run AS "nextRun", t.is_public AS "isPublic", t.view_count AS "viewCount",
  t.subscriber_count AS "subscriberCount", t.forked_from_task_id AS "forkedFromTaskId",
  t.last_known_state AS "lastKnownState", t.last_execution_id AS "lastExecutionId",
  t.check_job_id AS "checkJobId", t.notifications, t.consecutive_failures AS "consecutiveFailures",
  t.failure_alerted AS "failureAlerted", t.state_changed_at AS "stateChangedAt",
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

/** The last execution, its columns prefixed `e_`. */
const LAST_EXECUTION = new ExecutionColumns('e_');
const LAST_EXECUTION_COLUMNS = LAST_EXECUTION.select('e');

const WITH_LAST_EXECUTION = `SELECT ${TASK_COLUMNS}, ${LAST_EXECUTION_COLUMNS}
  FROM tasks t LEFT JOIN executions e ON e.id = t.last_execution_id`;

type Row = TaskEntity & Record<`e_${string}`, unknown>;

/**
 * The queries on `tasks`. The read paths the API serves most (the task list and one task, with
 * their last execution) are one query each, rows read as plain objects, no entity hydration.
 */
@Injectable()
export class TaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A user's tasks, newest first (ix_tasks_user_id_created_at). */
  async listOwned(userId: string, state?: TaskState): Promise<TaskWithLastExecution[]> {
    const rows = await queryRows<Row>(
      this.dataSource,
      `${WITH_LAST_EXECUTION} WHERE t.user_id = $1 AND ($2::text IS NULL OR t.state = $2)
       ORDER BY t.created_at DESC, t.id DESC`,
      [userId, state ?? null],
    );
    return rows.map(withLastExecution);
  }

  async findById(id: string): Promise<TaskWithLastExecution | null> {
    const rows = await queryRows<Row>(this.dataSource, `${WITH_LAST_EXECUTION} WHERE t.id = $1`, [
      id,
    ]);
    return rows.length === 0 ? null : withLastExecution(rows[0]);
  }

  /**
   * A page of public tasks with their last executions and how many public tasks there are, in one
   * statement (the count comes with an empty page too). Served by ix_tasks_public_created_at
   * (recent) and ix_tasks_public_view_count (popular).
   */
  async listPublic(
    sort: 'recent' | 'popular',
    offset: number,
    limit: number,
  ): Promise<{ tasks: TaskWithLastExecution[]; total: number }> {
    const order =
      sort === 'popular'
        ? 't.view_count DESC, t.subscriber_count DESC, t.created_at DESC, t.id DESC'
        : 't.created_at DESC, t.id DESC';
    const rows = await queryRows<Row & { total: string }>(
      this.dataSource,
      `SELECT c.total, page.* FROM (SELECT count(*) AS total FROM tasks WHERE is_public) c
       LEFT JOIN LATERAL (${WITH_LAST_EXECUTION} WHERE t.is_public ORDER BY ${order} OFFSET $1 LIMIT $2) page
       ON true`,
      [offset, limit],
    );
    return {
      tasks: rows.filter((row) => row.id !== null).map(withLastExecution),
      total: Number(rows[0]?.total ?? 0),
    };
  }

  /** Counts one view of a public task and reads it back with its last execution; null: no such public task. */
  async countPublicView(id: string): Promise<TaskWithLastExecution | null> {
    const rows = await queryRows<Row>(
      this.dataSource,
      `WITH t AS (UPDATE tasks SET view_count = view_count + 1 WHERE id = $1 AND is_public RETURNING *)
       SELECT ${TASK_COLUMNS}, ${LAST_EXECUTION_COLUMNS} FROM t LEFT JOIN executions e ON e.id = t.last_execution_id`,
      [id],
    );
    return rows.length === 0 ? null : withLastExecution(rows[0]);
  }

  /** Inserts a task, in the caller's transaction when `manager` holds one. */
  async insert(manager: EntityManager, task: NewTask): Promise<TaskEntity> {
    const rows = await queryRows<Row>(
      manager,
      `INSERT INTO tasks AS t (user_id, name, search_query, condition_description, state, notify_behavior,
         notifications, next_run, state_changed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${TASK_COLUMNS}, NULL AS e_id`,
      [
        task.userId,
        task.name,
        task.searchQuery,
        task.conditionDescription,
        task.state,
        task.notifyBehavior,
        JSON.stringify(task.notifications),
        task.nextRun,
        task.stateChangedAt,
      ],
    );
    return withLastExecution(rows[0]).task;
  }
  /**
   * Sets the visibility of a task the user owns; false when nothing changed. Making it public needs
   * a username, read in the same statement so a username set a moment ago counts.
   */
  async setVisibility(taskId: string, userId: string, isPublic: boolean): Promise<boolean> {
    const updated = await queryRows<{ id: string }>(
      this.dataSource,
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

  /** A public task, read outside any transaction. */
  findPublic(id: string): Promise<TaskEntity | null> {
    return this.dataSource.getRepository(TaskEntity).findOneBy({ id, isPublic: true });
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

  /** Inserts a fork (a paused task, no check job) in the caller's transaction. */
  insertFork(manager: EntityManager, fields: Partial<TaskEntity>): Promise<TaskEntity> {
    return manager.save(manager.create(TaskEntity, fields));
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.delete(TaskEntity, { id });
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

  /** One atomic increment: concurrent forks never lose a count. */
  async countSubscriber(manager: EntityManager, taskId: string): Promise<void> {
    await manager.query('UPDATE tasks SET subscriber_count = subscriber_count + 1 WHERE id = $1', [
      taskId,
    ]);
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

function withLastExecution(row: Row): TaskWithLastExecution {
  const task: TaskEntity = {
    id: row.id,
    userId: row.userId,
    name: row.name,
    searchQuery: row.searchQuery,
    conditionDescription: row.conditionDescription,
    state: row.state,
    notifyBehavior: row.notifyBehavior,
    nextRun: row.nextRun,
    isPublic: row.isPublic,
    viewCount: row.viewCount,
    subscriberCount: row.subscriberCount,
    forkedFromTaskId: row.forkedFromTaskId,
    lastKnownState: row.lastKnownState,
    lastExecutionId: row.lastExecutionId,
    checkJobId: row.checkJobId,
    notifications: row.notifications,
    consecutiveFailures: row.consecutiveFailures,
    failureAlerted: row.failureAlerted,
    stateChangedAt: row.stateChangedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  return { task, lastExecution: LAST_EXECUTION.read(row) };
}
