import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { PageResultLine } from '../pages/results/page-result-line';
import type { OutputValues } from '../search/output-schema';
import type { ProviderUsage } from '../search/provider-usage';
import type { GroundingSource } from '../search/search.types';
import { TaskEntity } from '../tasks/task.entity';
import type { EvidenceReport } from './decisions/evidence';
import type { ValueChange } from './decisions/value-changes';

/** Every status an execution can have (docs/api.md, "Executions and notifications"). */
export const EXECUTION_STATUSES = [
  'pending',
  'running',
  'retrying',
  'success',
  'failed',
  'cancelled',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const IN_FLIGHT_STATUSES: ExecutionStatus[] = ['pending', 'running', 'retrying'];
/** At most one execution in flight per task. */
export const IN_FLIGHT_UNIQUE_INDEX = 'uq_executions_in_flight_task_id';

export type ExecutionTrigger = 'scheduled' | 'manual';

export type { GroundingSource };

@Entity('executions')
@Index('ix_executions_task_id_created_at', ['taskId', 'createdAt'])
@Index('ix_executions_created_at', ['createdAt'])
@Index('ix_executions_failed_created_at', ['createdAt'], { where: "status = 'failed'" })
@Index('ix_executions_met_task_id_created_at', ['taskId', 'createdAt'], { where: 'condition_met' })
// At most one execution in flight per task: the database, not a check-then-insert, enforces it.
@Index(IN_FLIGHT_UNIQUE_INDEX, ['taskId'], {
  unique: true,
  where: "status IN ('pending', 'running', 'retrying')",
})
export class ExecutionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  taskId: string;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_executions_task' })
  task?: TaskEntity;

  @Column({ type: 'varchar', length: 16 })
  status: ExecutionStatus;

  @Column({ type: 'varchar', length: 16, default: 'scheduled' })
  trigger: ExecutionTrigger;

  /** The queue job that runs this execution; unique so a redelivered job reuses its row. */
  @Index('uq_executions_job_id', { unique: true })
  @Column({ type: 'uuid', nullable: true })
  jobId: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** The worker instance running it: a running execution whose worker stopped heartbeating is stale. */
  @Column({ type: 'uuid', nullable: true })
  workerId: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ type: 'jsonb', nullable: true })
  notification: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  groundingSources: GroundingSource[] | null;

  /** The verdict that counts: the model's, gated by the task's evidence rule (docs/api.md, "Values, evidence, confirmation and retraction"). */
  @Column({ type: 'boolean', nullable: true })
  conditionMet: boolean | null;

  /** The model's own verdict; null until the run succeeds. */
  @Column({ type: 'boolean', nullable: true })
  claimedMet: boolean | null;

  @Column({ type: 'jsonb', nullable: true })
  evidence: EvidenceReport | null;

  /** `values` of the API: what the check extracted; null without a schema. */
  @Column({ type: 'jsonb', nullable: true })
  outputValues: OutputValues | null;

  /** `changes` of the API: against the previous successful execution with values. */
  @Column({ type: 'jsonb', nullable: true })
  valueChanges: ValueChange[] | null;

  /** The schema the values were read with (`outputSchemaKey`): a new one starts a new baseline. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  valuesSchemaKey: string | null;

  @Column({ type: 'text', nullable: true })
  answer: string | null;

  @Column({ type: 'text', nullable: true })
  reasoning: string | null;

  /** What the provider call cost (docs/api.md); null until a provider was called. */
  @Column({ type: 'jsonb', nullable: true })
  usage: ProviderUsage | null;

  /** What a page task's check read of each page (docs/pages.md, "Page results"); null otherwise. */
  @Column({ type: 'jsonb', nullable: true })
  pageResults: PageResultLine[] | null;

  /** The execution whose model call (or page rule) made the verdict this one carries. */
  @Column({ type: 'uuid', nullable: true })
  verdictExecutionId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
