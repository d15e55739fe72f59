import { ApiExtraModels, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray } from 'class-validator';
import { OptionalEnum, OptionalRawJson, OptionalText } from '../../common/validation/fields';
import { NAME_MAX, TEXT_MAX, TEXT_MIN } from './create-task.dto';
import { NOTIFY_BEHAVIORS, type NotifyBehavior } from '../../search/search.types';
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

/** Every field optional: only the fields sent change. */
@ApiExtraModels(
  AlertPolicyDto,
  OutputSchemaDto,
  OutputPropertyDto,
  EvidenceRuleDto,
  PageTargetDto,
  PageRuleDto,
)
export class UpdateTaskDto {
  @ApiPropertyOptional({ maxLength: NAME_MAX })
  @OptionalText({ min: 1, max: NAME_MAX })
  name?: string;

  @ApiPropertyOptional({ minLength: TEXT_MIN, maxLength: TEXT_MAX })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  search_query?: string;

  @ApiPropertyOptional({ minLength: TEXT_MIN, maxLength: TEXT_MAX })
  @OptionalText({ min: TEXT_MIN, max: TEXT_MAX })
  condition_description?: string;

  @ApiPropertyOptional({ enum: ['active', 'paused', 'completed'] })
  @OptionalEnum(['active', 'paused', 'completed'])
  state?: 'active' | 'paused' | 'completed';

  @ApiPropertyOptional({
    enum: NOTIFY_BEHAVIORS,
    description: '`on_change` requires an output_schema',
  })
  @OptionalEnum(NOTIFY_BEHAVIORS)
  notify_behavior?: NotifyBehavior;

  @OutputSchemaProperty({ required: false, description: 'null clears it' })
  @OptionalRawJson()
  output_schema?: unknown;

  @EvidenceProperty({ required: false, description: 'null clears it' })
  @OptionalRawJson()
  evidence?: unknown;

  @AlertPolicyProperty({ required: false, description: 'null clears it' })
  @OptionalRawJson()
  alert_policy?: unknown;

  @PagesProperty({ required: false, description: 'null clears it, and page_rule with it' })
  @OptionalRawJson()
  pages?: unknown;

  @PageRuleProperty({ required: false, description: 'null clears it' })
  @OptionalRawJson()
  page_rule?: unknown;

  @NotificationsProperty({ required: false, description: 'At most one config per type' })
  @OptionalRawJson()
  @IsArray({ message: 'Input should be a valid list' })
  notifications?: unknown[];
}
