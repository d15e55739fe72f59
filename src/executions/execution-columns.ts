import type { ExecutionEntity } from './execution.entity';

/** Every column of an execution and the entity property it fills. */
const EXECUTION_FIELDS: ReadonlyArray<[column: string, property: keyof ExecutionEntity]> = [
  ['id', 'id'],
  ['task_id', 'taskId'],
  ['status', 'status'],
  ['trigger', 'trigger'],
  ['job_id', 'jobId'],
  ['attempts', 'attempts'],
  ['worker_id', 'workerId'],
  ['started_at', 'startedAt'],
  ['completed_at', 'completedAt'],
  ['result', 'result'],
  ['error_message', 'errorMessage'],
  ['notification', 'notification'],
  ['grounding_sources', 'groundingSources'],
  ['condition_met', 'conditionMet'],
  ['claimed_met', 'claimedMet'],
  ['evidence', 'evidence'],
  ['output_values', 'outputValues'],
  ['value_changes', 'valueChanges'],
  ['values_schema_key', 'valuesSchemaKey'],
  ['answer', 'answer'],
  ['reasoning', 'reasoning'],
  ['usage', 'usage'],
  ['page_results', 'pageResults'],
  ['verdict_execution_id', 'verdictExecutionId'],
  ['created_at', 'createdAt'],
];

/**
 * An execution read as a plain row: its select list names every column
 * `"<prefix><property>"`, so an execution joined to another row (prefix `e_`) keeps its own
 * names, and `read` turns such a row back into the execution.
 */
export class ExecutionColumns {
  private readonly keys: ReadonlyArray<[key: string, property: string]>;

  constructor(private readonly prefix = '') {
    this.keys = EXECUTION_FIELDS.map(([, property]) => [`${prefix}${property}`, property]);
  }

  /** The select list, for the table alias the statement uses. */
  select(alias: string): string {
    return EXECUTION_FIELDS.map(
      ([column, property]) => `${alias}.${column} AS "${this.prefix}${property}"`,
    ).join(', ');
  }

  /** The execution in a row, or null when the row has none (a LEFT JOIN without a match). */
  read(row: object): ExecutionEntity | null {
    const values = row as Record<string, unknown>;
    if (values[this.keys[0][0]] === null || values[this.keys[0][0]] === undefined) return null;
    const execution: Record<string, unknown> = {};
    for (const [key, property] of this.keys) execution[property] = values[key];
    return execution as unknown as ExecutionEntity;
  }
}
