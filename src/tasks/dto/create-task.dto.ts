import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, ValidateIf } from 'class-validator';
import {
  OptionalBoolean,
  OptionalEnum,
  OptionalRawJson,
  OptionalText,
  RequiredText,
} from '../../common/validation/fields';
import {
  DEFAULT_TASK_NAME,
  NOTIFY_BEHAVIORS,
  type NotifyBehavior,
} from '../../search/search.types';
import {
  EvidenceProperty,
  EvidenceRuleDto,
  OutputPropertyDto,
  OutputSchemaDto,
  OutputSchemaProperty,
} from './alert-fields.dto';
import { AlertPolicyDto, AlertPolicyProperty } from './alert-policy.dto';
import { NotificationsProperty } from './notification-config.dto';
import { PageRuleDto, PageRuleProperty, PagesProperty, PageTargetDto } from './page-fields.dto';

export const TEXT_MIN = 10;
export const TEXT_MAX = 500;
export const NAME_MAX = 200;

/**
 * `search_query` on create and preview: required, unless the request names `pages` (docs/pages.md,
 * "Pages on a task"); then it may be left out (or null) and reads `Watch <first page URL>`. One
 * that is sent is checked either way.
 */
export function SearchQueryText(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      minLength: TEXT_MIN,
      maxLength: TEXT_MAX,
      description:
        'Required without pages. With pages it may be left out: it is then `Watch <first page URL>`, cut to 500 characters',
    }),
    ValidateIf(
      (dto: { search_query?: unknown; pages?: unknown }) =>
        (dto.search_query !== undefined && dto.search_query !== null) ||
        dto.pages === undefined ||
        dto.pages === null,
    ),
    RequiredText({ min: TEXT_MIN, max: TEXT_MAX }),
  );
}

@ApiExtraModels(
  AlertPolicyDto,
  OutputSchemaDto,
  OutputPropertyDto,
  EvidenceRuleDto,
  PageTargetDto,
  PageRuleDto,
)
export class CreateTaskDto {
  @ApiPropertyOptional({
    maxLength: NAME_MAX,
    default: DEFAULT_TASK_NAME,
    description: "With pages, the default is the first page's host and path, cut to 100 characters",
  })
  @OptionalText({ min: 1, max: NAME_MAX })
  name?: string;

  @SearchQueryText()
  search_query?: string;

  @ApiPropertyOptional({
    minLength: TEXT_MIN,
    maxLength: TEXT_MAX,
    description: 'Defaults to search_query',
  })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  condition_description?: string;

  @ApiPropertyOptional({ enum: ['active', 'paused'], default: 'active' })
  @OptionalEnum(['active', 'paused'])
  state?: 'active' | 'paused';

  @ApiPropertyOptional({
    enum: NOTIFY_BEHAVIORS,
    default: 'once',
    description: '`on_change` requires an output_schema',
  })
  @OptionalEnum(NOTIFY_BEHAVIORS)
  notify_behavior?: NotifyBehavior;

  @OutputSchemaProperty({ required: false, description: 'Values each check extracts' })
  @OptionalRawJson()
  output_schema?: unknown;

  @EvidenceProperty({ required: false, description: 'What a met verdict needs from its sources' })
  @OptionalRawJson()
  evidence?: unknown;

  @AlertPolicyProperty({ required: false, description: 'Cooldown and reminders' })
  @OptionalRawJson()
  alert_policy?: unknown;

  @PagesProperty({
    required: false,
    description: 'Pages to watch instead of searching the web',
  })
  @OptionalRawJson()
  pages?: unknown;

  @PageRuleProperty({
    required: false,
    description:
      'Decides each check from the pages without a model; needs pages, refused with output_schema, and with on_change unless the pages read values',
  })
  @OptionalRawJson()
  page_rule?: unknown;

  @ApiPropertyOptional({
    default: false,
    description:
      'Queue a run in the create itself, as execute does (also for a paused task); its result schedules the next check. Without it an active task is still checked at once: its first scheduled check is due on creation.',
  })
  @OptionalBoolean()
  run_immediately?: boolean;

  @NotificationsProperty({ required: false, description: 'At most one config per type' })
  @OptionalRawJson()
  @IsArray({ message: 'Input should be a valid list' })
  notifications?: unknown[];
}
