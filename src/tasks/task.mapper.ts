import type { AlertPolicy } from '../attention/alert-policy';
import { AlertPolicyDto, AlertPolicyProperty, StandingAlertResponse } from './dto/alert-policy.dto';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  JsonObjectProperty,
  TimestampProperty,
  UuidProperty,
} from '../common/openapi/schema-properties';
import type { ExecutionEntity } from '../executions/execution.entity';
import {
  ExecutionResponse,
  toExecutionResponse,
  withoutItemKeys,
} from '../executions/execution.mapper';
import type { OutputSchema } from '../search/output-schema';
import { NOTIFY_BEHAVIORS } from '../search/search.types';
import {
  EvidenceProperty,
  EvidenceRuleDto,
  OutputPropertyDto,
  OutputSchemaDto,
  OutputSchemaProperty,
} from './dto/alert-fields.dto';
import { NotificationsProperty } from './dto/notification-config.dto';
import { PageRuleDto, PageRuleProperty, PagesProperty, PageTargetDto } from './dto/page-fields.dto';
import { PAGE_CREDENTIALS, type PageRule, type PageTarget } from '../pages/page.types';
import { pagesWithHeaders } from '../pages/targets/pages-with-headers';
import type { EvidenceRule } from './evidence-rule';
import { withoutCredentials } from '../idempotency/kept-answer';
import {
  CHANNEL_CREDENTIALS,
  type NotificationConfig,
} from '../notifications/channels/channel-registry';
import type { NotifyBehavior } from '../search/search.types';
import type { TaskEntity } from './task.entity';
import type { TaskState } from './task-state';

export type TaskViewer = 'owner' | 'public';

@ApiExtraModels(
  AlertPolicyDto,
  StandingAlertResponse,
  OutputSchemaDto,
  OutputPropertyDto,
  EvidenceRuleDto,
  PageTargetDto,
  PageRuleDto,
)
export class TaskResponse {
  @UuidProperty()
  id: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Owner only' })
  user_id?: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  search_query: string;

  @ApiProperty()
  condition_description: string;

  @ApiProperty({ enum: ['active', 'paused', 'completed'] })
  state: TaskState;

  @ApiProperty({ enum: NOTIFY_BEHAVIORS })
  notify_behavior: NotifyBehavior;

  @OutputSchemaProperty({ required: true, description: 'Null when the task extracts no values' })
  output_schema: OutputSchema | null;

  @EvidenceProperty({
    required: true,
    description: 'Null: a met verdict counts as the model claims it',
  })
  evidence: EvidenceRule | null;

  @PagesProperty({
    required: true,
    description:
      "Null for a search task; headers are the owner's only: others see url, selector and items",
  })
  pages: PageTarget[] | null;

  @PageRuleProperty({ required: true, description: 'Null: a model reads the pages' })
  page_rule: PageRule | null;

  @AlertPolicyProperty({ required: true, description: 'Null: no cooldown and no reminders' })
  alert_policy: AlertPolicy | null;

  @ApiProperty({
    type: StandingAlertResponse,
    nullable: true,
    description: 'The standing alert; owner only: null for others',
  })
  alert: StandingAlertResponse | null;

  @TimestampProperty({ nullable: true, description: 'Set by the agent; null when completed' })
  next_run: string | null;

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ type: 'integer' })
  view_count: number;

  @ApiProperty({ type: 'integer' })
  subscriber_count: number;

  @UuidProperty({ nullable: true })
  forked_from_task_id: string | null;

  @JsonObjectProperty({ nullable: true, description: 'State the agent keeps between checks' })
  last_known_state: Record<string, unknown> | null;

  @UuidProperty({ nullable: true })
  last_execution_id: string | null;

  @ApiProperty({ type: ExecutionResponse, nullable: true })
  last_execution: ExecutionResponse | null;

  @NotificationsProperty({
    required: true,
    description: 'Owner only (secrets included): empty for others',
  })
  notifications: NotificationConfig[];

  @ApiProperty({ type: String, nullable: true, description: 'Owner only: null for others' })
  notification_email: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Owner only: null for others' })
  webhook_url: string | null;

  @TimestampProperty()
  state_changed_at: string;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty({ nullable: true })
  updated_at: string | null;
}

/** The create answer: a task plus what `run_immediately` ran into. */
export class CreatedTaskResponse extends TaskResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The error `run_immediately` met; null when none (or not asked)',
  })
  immediate_execution_error: string | null;
}

/**
 * The one place a task becomes an API object, so nothing owner-only can reach another caller
 * through one forgotten endpoint. Anyone but the owner gets no `user_id`, no notification config
 * (emails, webhook URLs, headers, secrets), no page headers and no error details.
 *
 * One object literal, built once per task: the lists serialise it as it is, and a field added
 * here is in every task answer. `user_id` is `undefined` for anyone but the owner, which JSON
 * leaves out.
 */
export function toTaskResponse(
  task: TaskEntity,
  viewer: TaskViewer,
  lastExecution: ExecutionEntity | null = null,
): TaskResponse {
  const owner = viewer === 'owner';
  // What others may not see of the pages fetched with the owner's headers (docs/pages.md,
  // "Public tasks"); null for the owner.
  const secured = owner ? null : pagesWithHeaders(task.pages);
  const email = task.notifications.find((config) => config.type === 'email');
  const webhook = task.notifications.find((config) => config.type === 'webhook');
  return {
    id: task.id,
    user_id: owner ? task.userId : undefined,
    name: task.name,
    search_query: task.searchQuery,
    condition_description: task.conditionDescription,
    state: task.state,
    notify_behavior: task.notifyBehavior,
    output_schema: task.outputSchema,
    evidence: task.evidence,
    pages: owner || task.pages === null ? task.pages : task.pages.map(withoutHeaders),
    page_rule: task.pageRule,
    alert_policy: task.alertPolicy,
    alert: owner ? standingAlert(task) : null,
    next_run: task.nextRun?.toISOString() ?? null,
    is_public: task.isPublic,
    view_count: task.viewCount,
    subscriber_count: task.subscriberCount,
    forked_from_task_id: task.forkedFromTaskId,
    last_known_state:
      secured === null || secured.size === 0
        ? task.lastKnownState
        : withoutItemKeys(task.lastKnownState),
    last_execution_id: task.lastExecutionId,
    last_execution: lastExecution
      ? toExecutionResponse(
          lastExecution,
          secured === null ? 'owner' : { pagesWithHeaders: secured },
        )
      : null,
    notifications: owner ? task.notifications : [],
    notification_email: owner && email?.type === 'email' ? email.address : null,
    webhook_url: owner && webhook?.type === 'webhook' ? webhook.url : null,
    state_changed_at: task.stateChangedAt.toISOString(),
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt?.toISOString() ?? null,
  };
}

/**
 * A task answer as an `Idempotency-Key` keeps it: no credential is stored a second time, so a
 * replayed answer has null for each that its notification configs and pages hold, as their
 * definitions name them (`credentials` of each channel, `PAGE_CREDENTIALS`): a webhook's
 * `secret` and `headers`, an ntfy `token`, a Telegram `bot_token`, a page's `headers`
 * (docs/api.md, "Idempotency-Key").
 */
export function keptTaskAnswer(answer: TaskResponse): unknown {
  return {
    ...answer,
    pages: answer.pages?.map((page) => withoutCredentials(page, PAGE_CREDENTIALS)) ?? null,
    notifications: answer.notifications.map((config) =>
      withoutCredentials(config, CHANNEL_CREDENTIALS.get(config.type) ?? []),
    ),
  };
}

/**
 * The alert that stands (docs/attention.md, "Acknowledge"): from its notification until a
 * retraction clears it or the task completes.
 */
export function standingAlert(
  task: Pick<
    TaskEntity,
    'state' | 'alertExecutionId' | 'alertNotifiedAt' | 'alertAcknowledgedAt' | 'alertRepeatsSent'
  >,
): StandingAlertResponse | null {
  if (task.state === 'completed' || task.alertExecutionId === null || task.alertNotifiedAt === null)
    return null;
  return {
    execution_id: task.alertExecutionId,
    notified_at: task.alertNotifiedAt.toISOString(),
    acknowledged_at: task.alertAcknowledgedAt?.toISOString() ?? null,
    repeats_sent: task.alertRepeatsSent,
  };
}

/** A page as anyone but its owner may see it: its headers hold cookies and tokens. */
export function withoutHeaders(page: PageTarget): PageTarget {
  const { headers: _headers, ...shown } = page;
  return shown;
}
