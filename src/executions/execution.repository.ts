import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { PageTarget } from '../pages/page.types';
import { ExecutionColumns } from './execution-columns';
import { ExecutionEntity, IN_FLIGHT_STATUSES, type ExecutionStatus } from './execution.entity';

/** A page of a task's executions, with what decides who may read them. */
export interface TaskExecutionPage {
  ownerId: string;
  isPublic: boolean;
  /** The task's pages, which tell non-owners' views what to leave out. */
  pages: PageTarget[] | null;
  executions: ExecutionEntity[];
}

const EXECUTION = new ExecutionColumns();

/**
 * The statements on `executions` that the API serves: the reads (a task's executions, the admin's
 * listing, the met ones of feeds and notification history) and the changes a request makes (a
 * manual run, cancellations). The check runner's statements are CheckRunRepository's, the
 * sweeps' ExecutionSweepRepository's.
 */
@Injectable()
export class ExecutionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A task's owner and visibility with a page of its executions, newest first, in one statement
   * (ix_executions_task_id_created_at); null when there is no such task.
   */
  async pageForTask(
    taskId: string,
    status: ExecutionStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<TaskExecutionPage | null> {
    const rows = await queryRows<{
      ownerId: string;
      isPublic: boolean;
      taskPages: PageTarget[] | null;
    }>(
      this.dataSource,
      `SELECT t.user_id AS "ownerId", t.is_public AS "isPublic", t.pages AS "taskPages", page.*
       FROM tasks t
       LEFT JOIN LATERAL (
         SELECT ${EXECUTION.select('e')} FROM executions e
         WHERE e.task_id = t.id AND ($2::text IS NULL OR e.status = $2)
         ORDER BY e.created_at DESC, e.id DESC OFFSET $3 LIMIT $4
       ) page ON true
       WHERE t.id = $1`,
      [taskId, status ?? null, offset, limit],
    );
    if (rows.length === 0) return null;
    return {
      ownerId: rows[0].ownerId,
      isPublic: rows[0].isPublic,
      pages: rows[0].taskPages,
      executions: rows
        .map((row) => EXECUTION.read(row))
        .filter((execution): execution is ExecutionEntity => execution !== null),
    };
  }

  findByIds(ids: string[]): Promise<ExecutionEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(ExecutionEntity).findBy({ id: In(ids) });
  }

  /** Every execution, newest first (ix_executions_created_at), or the failed ones with their task. */
  pageNewestFirst(
    limit: number,
    offset: number,
    failedOnly = false,
  ): Promise<[ExecutionEntity[], number]> {
    return this.dataSource.getRepository(ExecutionEntity).findAndCount({
      where: failedOnly ? { status: 'failed' } : {},
      relations: failedOnly ? { task: true } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /**
   * A task's executions that met its condition, newest first (ix_executions_met_task_id_created_at);
   * `successOnly` leaves out those that did not end as a success.
   */
  listMet(
    taskId: string,
    limit: number,
    offset = 0,
    successOnly = false,
  ): Promise<ExecutionEntity[]> {
    return this.dataSource.getRepository(ExecutionEntity).find({
      where: { taskId, conditionMet: true, ...(successOnly ? { status: 'success' as const } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  /** A task's executions in flight, in id order (the caller holds the task's lock). */
  findInFlight(manager: EntityManager, taskId: string): Promise<ExecutionEntity[]> {
    return manager.find(ExecutionEntity, {
      where: { taskId, status: In(IN_FLIGHT_STATUSES) },
      order: { id: 'ASC' },
    });
  }

  /** Cancels those of `ids` still in flight with `message`. */
  async cancelInFlight(
    manager: EntityManager,
    ids: string[],
    message: string,
    now: Date,
  ): Promise<void> {
    if (ids.length === 0) return;
    await manager.update(
      ExecutionEntity,
      { id: In(ids), status: In(IN_FLIGHT_STATUSES) },
      { status: 'cancelled', completedAt: now, errorMessage: message, workerId: null },
    );
  }

  /** Inserts a `pending` manual run; the in-flight unique index refuses a second one. */
  insertManualRun(manager: EntityManager, taskId: string): Promise<ExecutionEntity> {
    return manager.save(
      manager.create(ExecutionEntity, { taskId, status: 'pending', trigger: 'manual' }),
    );
  }

  /** Cancels a user's queued and running executions, in the caller's transaction. */
  async cancelInFlightOfUser(
    manager: EntityManager,
    userId: string,
    reason: string,
  ): Promise<void> {
    await manager.query(
      `UPDATE executions SET status = 'cancelled', completed_at = now(), error_message = $2,
         worker_id = NULL
       WHERE status = ANY($3::text[]) AND task_id IN (SELECT id FROM tasks WHERE user_id = $1)`,
      [userId, reason, IN_FLIGHT_STATUSES],
    );
  }

  async setJobId(manager: EntityManager, executionId: string, jobId: string): Promise<void> {
    await manager.query('UPDATE executions SET job_id = $2 WHERE id = $1', [executionId, jobId]);
  }
}
