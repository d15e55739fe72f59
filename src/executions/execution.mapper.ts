import { ApiProperty } from '@nestjs/swagger';
import {
  JsonObjectProperty,
  TimestampProperty,
  UuidProperty,
} from '../common/openapi/schema-properties';
import type { OutputValue, OutputValues } from '../search/output-schema';
import type { ProviderUsage } from '../search/provider-usage';
import type { EvidenceReport } from './decisions/evidence';
import type { ValueChange } from './decisions/value-changes';
import { PageResultResponse } from '../pages/page-result.response';
import {
  EXECUTION_STATUSES,
  type ExecutionEntity,
  type ExecutionStatus,
  type GroundingSource,
} from './execution.entity';

export class GroundingSourceResponse implements GroundingSource {
  @ApiProperty()
  uri: string;

  @ApiProperty()
  title: string;
}

export class ProviderUsageResponse implements ProviderUsage {
  @ApiProperty({ example: 'gemini' })
  provider: string;

  @ApiProperty()
  model: string;

  @ApiProperty({ type: 'integer' })
  input_tokens: number;

  @ApiProperty({ type: 'integer' })
  output_tokens: number;

  @ApiProperty({ type: 'integer' })
  search_calls: number;

  @ApiProperty({ type: Number, nullable: true, description: 'USD; null when no price is known' })
  cost_usd: number | null;
}

export class EvidenceReportResponse implements EvidenceReport {
  @ApiProperty({ type: 'integer', description: 'Distinct domains among the sources' })
  distinct_domains: number;

  @ApiProperty({ type: 'integer', description: 'Distinct domains that match a trusted domain' })
  trusted_matches: number;

  @ApiProperty({ description: 'Whether the sources meet the evidence rule (defaults without one)' })
  satisfied: boolean;
}

/** A value: a string, number or boolean, or null (OpenAPI 3.0 states null on one branch). */
export const OUTPUT_VALUE_SCHEMA = {
  oneOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }],
};

export class ValueChangeResponse implements ValueChange {
  @ApiProperty()
  field: string;

  @ApiProperty(OUTPUT_VALUE_SCHEMA)
  before: OutputValue;

  @ApiProperty(OUTPUT_VALUE_SCHEMA)
  after: OutputValue;
}

export class ExecutionResponse {
  @UuidProperty()
  id: string;

  @UuidProperty()
  task_id: string;

  @ApiProperty({ enum: EXECUTION_STATUSES })
  status: ExecutionStatus;

  @TimestampProperty()
  started_at: string;

  @TimestampProperty({ nullable: true })
  completed_at: string | null;

  @JsonObjectProperty({
    nullable: true,
    description: 'Null until the run ends; non-owners never see `error`',
  })
  result: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, description: 'Owner only: null for others' })
  error_message: string | null;

  @JsonObjectProperty({ nullable: true, description: 'Owner only: null for others' })
  notification: Record<string, unknown> | null;

  @ApiProperty({ type: [GroundingSourceResponse], nullable: true })
  grounding_sources: GroundingSourceResponse[] | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'claimed_met, and the evidence rule satisfied when the task has one',
  })
  condition_met: boolean | null;

  @ApiProperty({ type: Boolean, nullable: true, description: "The model's own verdict" })
  claimed_met: boolean | null;

  @ApiProperty({ type: EvidenceReportResponse, nullable: true })
  evidence: EvidenceReportResponse | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: OUTPUT_VALUE_SCHEMA,
    nullable: true,
    description: "The values of the task's output_schema; null without one",
  })
  values: OutputValues | null;

  @ApiProperty({
    type: [ValueChangeResponse],
    nullable: true,
    description: 'Against the previous successful execution with values; null without a schema',
  })
  changes: ValueChangeResponse[] | null;

  @ApiProperty({ type: String, nullable: true })
  answer: string | null;

  @ApiProperty({ type: String, nullable: true })
  reasoning: string | null;

  @ApiProperty({
    type: ProviderUsageResponse,
    nullable: true,
    description: 'Null before the run called a provider; owner only',
  })
  usage: ProviderUsageResponse | null;

  @ApiProperty({
    type: [PageResultResponse],
    nullable: true,
    description: "What the check read of each page, in the task's page order; null without pages",
  })
  page_results: PageResultResponse[] | null;

  @UuidProperty({
    nullable: true,
    description: 'The execution whose model call or page rule made this verdict',
  })
  verdict_execution_id: string | null;

  @TimestampProperty()
  created_at: string;
}

export type ExecutionViewer = 'owner' | 'public';

/**
 * The one place an execution becomes an API object. Non-owners of a public task never see error
 * details (a page's `error` included) or the notification decision (who was notified is the
 * owner's business).
 */
export function toExecutionResponse(
  execution: ExecutionEntity,
  viewer: ExecutionViewer = 'owner',
): ExecutionResponse {
  const owner = viewer === 'owner';
  return {
    id: execution.id,
    task_id: execution.taskId,
    status: execution.status,
    started_at: execution.startedAt.toISOString(),
    completed_at: execution.completedAt?.toISOString() ?? null,
    result: owner ? execution.result : scrubResult(execution.result),
    error_message: owner ? execution.errorMessage : null,
    notification: owner ? execution.notification : null,
    grounding_sources: execution.groundingSources,
    condition_met: execution.conditionMet,
    claimed_met: execution.claimedMet,
    evidence: execution.evidence,
    values: execution.outputValues,
    changes: execution.valueChanges,
    answer: execution.answer,
    reasoning: execution.reasoning,
    usage: owner ? execution.usage : null,
    page_results:
      owner || execution.pageResults === null
        ? execution.pageResults
        : execution.pageResults.map((line) => ({ ...line, error: null })),
    verdict_execution_id: execution.verdictExecutionId,
    created_at: execution.createdAt.toISOString(),
  };
}

function scrubResult(result: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!result) return null;
  const { error: _error, ...visible } = result;
  return visible;
}
