import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { OutputSchema, OutputValues } from '../search/output-schema';
import type { PageRule, PageTarget } from '../pages/page.types';
import type { NotifyBehavior } from '../search/search.types';
import type { CheckHistory } from './decisions/check-outcome';

/** An execution now `running` on a worker, the job that runs it, and which attempt this is. */
export interface ClaimedRun {
  id: string;
  job_id: string;
  attempts: number;
}

/** What a claimed execution checks: its task's question and the state it last saw. */
export interface RunDetails {
  execution_id: string;
  task_id: string;
  user_id: string;
  search_query: string;
  condition_description: string;
  output_schema: OutputSchema | null;
  last_known_state: Record<string, unknown> | null;
  previous_state: Record<string, unknown> | null;
  previous_at: Date | null;
  pages: PageTarget[] | null;
  page_rule: PageRule | null;
  notify_behavior: NotifyBehavior;
  /** The last successful verdict a page check may carry (null: none, or a search task). */
  previous_verdict: {
    verdict_execution_id: string;
    claimed_met: boolean | null;
    condition_met: boolean | null;
    answer: string | null;
    reasoning: string | null;
    output_values: OutputValues | null;
    awaiting_confirmation: boolean | null;
  } | null;
}

/** The final columns of one execution, JSON already serialised. */
export interface ExecutionOutcome {
  id: string;
  /** The attempt that wrote them: written only while the execution is still that attempt's. */
  attempt: number;
  status: 'success' | 'failed';
  error: string | null;
  result: string;
  notification: string;
  conditionMet: boolean | null;
  claimedMet: boolean | null;
  evidence: string | null;
  values: string | null;
  changes: string | null;
  valuesSchemaKey: string | null;
  answer: string | null;
  reasoning: string | null;
  sources: string | null;
  usage: string | null;
  /** `page_results`, serialised; null for a task without pages. */
  pageResults: string | null;
  verdictExecutionId: string | null;
}

/**
 * The statements on `executions` that move a check through its states on a worker: claiming it,
 * reading what it checks, and writing its outcome or its retry. They are batched (one statement
 * per batch with `unnest`) and join the caller's transaction.
 */
@Injectable()
export class CheckRunRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Marks manual runs `running` on this worker (counting the attempt); returns those claimed. */
  claimManualRuns(
    manager: EntityManager,
    runs: Array<{ executionId: string; jobId: string }>,
    workerId: string,
  ): Promise<ClaimedRun[]> {
    return queryRows<ClaimedRun>(
      manager,
      `UPDATE executions e SET status = 'running', attempts = e.attempts + 1, worker_id = $3, job_id = j.job_id,
         started_at = CASE WHEN e.attempts = 0 THEN now() ELSE e.started_at END
       FROM unnest($1::uuid[], $2::uuid[]) AS j(execution_id, job_id)
       WHERE e.id = j.execution_id AND e.status IN ('pending', 'retrying', 'running')
       RETURNING e.id, e.job_id, e.attempts`,
      [runs.map((run) => run.executionId), runs.map((run) => run.jobId), workerId],
    );
  }

  /** Continues the execution rows of redelivered scheduled jobs; returns those claimed. */
  resumeScheduledRuns(
    manager: EntityManager,
    jobIds: string[],
    workerId: string,
  ): Promise<ClaimedRun[]> {
    return queryRows<ClaimedRun>(
      manager,
      `UPDATE executions SET status = 'running', attempts = attempts + 1, worker_id = $2
       WHERE job_id = ANY($1::uuid[]) AND status IN ('retrying', 'running')
       RETURNING id, job_id, attempts`,
      [jobIds, workerId],
    );
  }

  /**
   * Creates a running execution for each scheduled job that is still its active task's current
   * check; a run already in flight for the task wins (the in-flight unique index).
   */
  startScheduledRuns(
    manager: EntityManager,
    runs: Array<{ taskId: string; jobId: string }>,
    workerId: string,
  ): Promise<ClaimedRun[]> {
    return queryRows<ClaimedRun>(
      manager,
      `INSERT INTO executions (task_id, status, trigger, job_id, attempts, worker_id)
       SELECT t.id, 'running', 'scheduled', j.job_id, 1, $3
       FROM unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id)
       JOIN tasks t ON t.id = j.task_id AND t.state = 'active' AND t.check_job_id = j.job_id
       ORDER BY t.id
       ON CONFLICT DO NOTHING
       RETURNING id, job_id, attempts`,
      [runs.map((run) => run.taskId), runs.map((run) => run.jobId), workerId],
    );
  }

  /** Each execution's task and the state of the task's last successful check. */
  findRunDetails(manager: EntityManager, executionIds: string[]): Promise<RunDetails[]> {
    return queryRows<RunDetails>(
      manager,
      `SELECT e.id AS execution_id, t.id AS task_id, t.user_id, t.search_query, t.condition_description,
              t.output_schema, t.last_known_state, t.pages, t.page_rule, t.notify_behavior,
              p.result -> 'current_state' AS previous_state, p.completed_at AS previous_at,
              CASE WHEN p.id IS NOT NULL AND t.pages IS NOT NULL
                     AND p.created_at > coalesce(t.check_inputs_changed_at, '-infinity')
              THEN jsonb_build_object(
                'verdict_execution_id', coalesce(p.verdict_execution_id, p.id),
                'claimed_met', coalesce(p.claimed_met, p.condition_met),
                'condition_met', p.condition_met, 'answer', p.answer, 'reasoning', p.reasoning,
                'output_values', p.output_values,
                'awaiting_confirmation', (p.notification ->> 'awaiting_confirmation')::boolean)
              END AS previous_verdict
       FROM executions e
       JOIN tasks t ON t.id = e.task_id
       LEFT JOIN LATERAL (
         SELECT id, result, completed_at, created_at, verdict_execution_id, claimed_met,
                condition_met, answer, reasoning, output_values, notification FROM executions
         WHERE task_id = t.id AND status = 'success' ORDER BY created_at DESC LIMIT 1
       ) p ON true
       WHERE e.id = ANY($1::uuid[])`,
      [executionIds],
    );
  }

  /**
   * What each task's earlier successful checks said (ix_executions_task_id_created_at): the
   * verdicts of the last two, which confirmations and retractions look at, and the last values.
   * The running check of the task is not among them: it is not a success yet; nor are checks that
   * carried an earlier verdict of unchanged pages (docs/pages.md): streaks skip them.
   */
  async findCheckHistories(
    manager: EntityManager,
    taskIds: string[],
  ): Promise<Map<string, CheckHistory>> {
    if (taskIds.length === 0) return new Map();
    const rows = await queryRows<{
      task_id: string;
      recent: Array<{ condition_met: boolean | null; claimed_met: boolean | null }>;
      output_values: OutputValues | null;
      values_schema_key: string | null;
    }>(
      manager,
      `SELECT t.id AS task_id,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('condition_met', r.condition_met,
                   'claimed_met', r.claimed_met) ORDER BY r.created_at DESC), '[]'::jsonb)
          FROM (SELECT condition_met, claimed_met, created_at FROM executions
                WHERE task_id = t.id AND status = 'success'
                  AND (verdict_execution_id IS NULL OR verdict_execution_id = id)
                ORDER BY created_at DESC LIMIT 2) r) AS recent,
         v.output_values, v.values_schema_key
       FROM unnest($1::uuid[]) AS t(id)
       LEFT JOIN LATERAL (
         SELECT output_values, values_schema_key FROM executions
         WHERE task_id = t.id AND status = 'success' AND output_values IS NOT NULL
         ORDER BY created_at DESC LIMIT 1
       ) v ON true`,
      [taskIds],
    );
    return new Map(
      rows.map((row) => [
        row.task_id,
        {
          // Executions from before evidence existed: their verdict was the model's.
          recent: row.recent.map((run) => ({
            conditionMet: run.condition_met === true,
            claimedMet: (run.claimed_met ?? run.condition_met) === true,
          })),
          previousValues:
            row.output_values === null
              ? null
              : { values: row.output_values, schemaKey: row.values_schema_key },
        },
      ]),
    );
  }

  /**
   * Puts the executions still running as these attempts on this worker back to `retrying` with
   * their error; returns the ids of those it moved.
   */
  async markRetrying(
    manager: EntityManager,
    runs: Array<{ executionId: string; attempt: number; message: string }>,
    workerId: string,
  ): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE executions e SET status = 'retrying', error_message = r.message, worker_id = NULL
       FROM unnest($1::uuid[], $2::text[], $4::int[]) AS r(id, message, attempt)
       WHERE e.id = r.id AND e.status = 'running' AND e.worker_id = $3 AND e.attempts = r.attempt
       RETURNING e.id`,
      [
        runs.map((run) => run.executionId),
        runs.map((run) => run.message),
        workerId,
        runs.map((run) => run.attempt),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Whether the execution still runs as this attempt on this worker: not taken back by the sweeper
   * (and handed to another attempt) nor cancelled meanwhile.
   */
  async runsAs(executionId: string, attempt: number, workerId: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `SELECT 1 FROM executions WHERE id = $1 AND status = 'running' AND attempts = $2 AND worker_id = $3`,
      [executionId, attempt, workerId],
    );
    return rows.length > 0;
  }

  /**
   * Writes the final columns of the executions still running as their attempt on this worker; an
   * older attempt's answer loses to the newer attempt (docs/architecture.md, "Nothing is lost when
   * a process dies"). Returns those written.
   */
  async recordOutcomes(
    manager: EntityManager,
    outcomes: ExecutionOutcome[],
    workerId: string,
  ): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE executions e SET status = v.status, completed_at = now(), error_message = v.error,
         result = v.result::jsonb, notification = v.notification::jsonb, condition_met = v.condition_met,
         answer = v.answer, reasoning = v.reasoning, grounding_sources = v.sources::jsonb,
         usage = v.usage::jsonb, claimed_met = v.claimed_met, evidence = v.evidence::jsonb,
         output_values = v.output_values::jsonb, value_changes = v.value_changes::jsonb,
         values_schema_key = v.values_schema_key, page_results = v.page_results::jsonb,
         verdict_execution_id = v.verdict_execution_id, worker_id = NULL
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::text[], $10::text[],
           $12::boolean[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::uuid[],
           $19::int[])
         AS v(id, status, error, result, notification, condition_met, answer, reasoning, sources, usage,
           claimed_met, evidence, output_values, value_changes, values_schema_key, page_results,
           verdict_execution_id, attempt)
       WHERE e.id = v.id AND e.status = 'running' AND e.worker_id = $11 AND e.attempts = v.attempt
       RETURNING e.id`,
      [
        outcomes.map((outcome) => outcome.id),
        outcomes.map((outcome) => outcome.status),
        outcomes.map((outcome) => outcome.error),
        outcomes.map((outcome) => outcome.result),
        outcomes.map((outcome) => outcome.notification),
        outcomes.map((outcome) => outcome.conditionMet),
        outcomes.map((outcome) => outcome.answer),
        outcomes.map((outcome) => outcome.reasoning),
        outcomes.map((outcome) => outcome.sources),
        outcomes.map((outcome) => outcome.usage),
        workerId,
        outcomes.map((outcome) => outcome.claimedMet),
        outcomes.map((outcome) => outcome.evidence),
        outcomes.map((outcome) => outcome.values),
        outcomes.map((outcome) => outcome.changes),
        outcomes.map((outcome) => outcome.valuesSchemaKey),
        outcomes.map((outcome) => outcome.pageResults),
        outcomes.map((outcome) => outcome.verdictExecutionId),
        outcomes.map((outcome) => outcome.attempt),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }
}
