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
import { PageResultResponse } from '../pages/results/page-result.response';
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
    description:
      "The values of the task's output_schema, or each value its pages declare (read, or null); null without either",
  })
  values: OutputValues | null;

  @ApiProperty({
    type: [ValueChangeResponse],
    nullable: true,
    description:
      'Against the previous successful execution with values; null without a schema or page values',
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

/**
 * Who sees an execution: its task's owner, or anyone else, who is not shown what the owner's page
 * headers fetched (`pagesWithHeaders` of the task's pages).
 */
export type ExecutionViewer = 'owner' | { pagesWithHeaders: ReadonlySet<string> };

/**
 * The one place an execution becomes an API object. Non-owners of a public task never see error
 * details (a page's `error` included) or the notification decision (who was notified is the
 * owner's business), nor what a page fetched with the owner's headers held (`publicResponse`).
 */
export function toExecutionResponse(
  execution: ExecutionEntity,
  viewer: ExecutionViewer = 'owner',
): ExecutionResponse {
  if (viewer !== 'owner') return publicResponse(execution, viewer.pagesWithHeaders);
  return {
    id: execution.id,
    task_id: execution.taskId,
    status: execution.status,
    started_at: execution.startedAt.toISOString(),
    completed_at: execution.completedAt?.toISOString() ?? null,
    result: execution.result,
    error_message: execution.errorMessage,
    notification: execution.notification,
    grounding_sources: execution.groundingSources,
    condition_met: execution.conditionMet,
    claimed_met: execution.claimedMet,
    evidence: execution.evidence,
    values: execution.outputValues,
    changes: execution.valueChanges,
    answer: execution.answer,
    reasoning: execution.reasoning,
    usage: execution.usage,
    page_results: execution.pageResults,
    verdict_execution_id: execution.verdictExecutionId,
    created_at: execution.createdAt.toISOString(),
  };
}

/**
 * What anyone but the owner sees of an execution of a public task. A page fetched with the
 * owner's headers shows only that it was read: its `url`, `status`, `http_status` and
 * `fetched_at`, its title, final URL and lines null (docs/pages.md, "Public tasks"); nor does
 * anything that repeats them show: its grounding source is its own URL and host, and a check that
 * read it shows no `reasoning` (a page rule's quotes the page's lines).
 */
function publicResponse(
  execution: ExecutionEntity,
  withHeaders: ReadonlySet<string>,
): ExecutionResponse {
  const shown = toExecutionResponse(execution);
  const secured = (shown.page_results ?? []).filter((line) => withHeaders.has(line.url));
  const readSecured = secured.some((line) => line.status !== 'error');
  // A page's grounding source is its final URL, titled by the page.
  const sourceOf = new Map(
    secured.map((line) => [
      line.final_url ?? line.url,
      { uri: line.url, title: new URL(line.url).hostname },
    ]),
  );
  return {
    ...shown,
    result: publicResult(shown.result, readSecured),
    error_message: null,
    notification: null,
    usage: null,
    grounding_sources:
      shown.grounding_sources?.map((source) => sourceOf.get(source.uri) ?? source) ?? null,
    reasoning: readSecured ? null : shown.reasoning,
    page_results:
      shown.page_results?.map((line) =>
        withHeaders.has(line.url) ? readWithHeaders(line) : { ...line, error: null },
      ) ?? null,
  };
}

/**
 * A result without its error, and without its reasoning when `hideReasoning`, nor then the item
 * keys of a `new_items` rule's state (a list's links).
 */
function publicResult(
  result: Record<string, unknown> | null,
  hideReasoning: boolean,
): Record<string, unknown> | null {
  if (result === null) return null;
  const { error: _error, ...visible } = result;
  if (!hideReasoning) return visible;
  return {
    ...visible,
    ...('reasoning' in visible ? { reasoning: null } : {}),
    ...('current_state' in visible
      ? { current_state: withoutItemKeys(visible.current_state as Record<string, unknown> | null) }
      : {}),
  };
}

/**
 * A rule's state as it shows when a page fetched with the owner's headers was read: a
 * `new_items` rule's `keys` (a list's links) null, any other state as it is.
 */
export function withoutItemKeys(
  state: Record<string, unknown> | null,
): Record<string, unknown> | null {
  return state?.rule === 'new_items' ? { ...state, keys: null } : state;
}

/** A page fetched with the owner's headers, as non-owners see it: that it was read, not what. */
function readWithHeaders(line: PageResultResponse): PageResultResponse {
  return {
    url: line.url,
    render: line.render,
    final_url: null,
    status: line.status,
    http_status: line.http_status,
    title: null,
    error: null,
    added: null,
    removed: null,
    new_items: null,
    values: null,
    value_errors: null,
    fetched_at: line.fetched_at,
  };
}
