import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DEFAULT_REPEAT_MAX, MAX_REPEAT_MAX } from '../../attention/alert-policy';
import { TimestampProperty, UuidProperty } from '../../common/openapi/schema-properties';

const DURATION = 'A whole number and a unit: 30s, 15m, 2h, 1d';

/** `alert_policy` (docs/attention.md, "Alert policy"); checked by `validateAlertPolicy`. */
export class AlertPolicyDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: `Folds alerts inside the window into one. ${DURATION}; at least ALERT_MIN_COOLDOWN, at most 30d`,
  })
  cooldown: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: `Reminds of a standing alert until it is acknowledged (always tasks only). ${DURATION}; at least ALERT_MIN_REPEAT, at most 30d`,
  })
  repeat_every: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_REPEAT_MAX,
    default: DEFAULT_REPEAT_MAX,
  })
  repeat_max: number;
}

export function AlertPolicyProperty(options: { required: boolean; description: string }) {
  return applyDecorators(
    ApiProperty({
      required: options.required,
      type: AlertPolicyDto,
      nullable: true,
      description: options.description,
    }),
  );
}

/** A task's standing alert (docs/attention.md, "Acknowledge"). */
export class StandingAlertResponse {
  @UuidProperty({ description: 'The execution of the last condition_met notification' })
  execution_id: string;

  @TimestampProperty()
  notified_at: string;

  @TimestampProperty({ nullable: true })
  acknowledged_at: string | null;

  @ApiProperty({ type: 'integer' })
  repeats_sent: number;
}

/** `POST /api/v1/tasks/{id}/acknowledge`. */
export class AcknowledgedAlertResponse {
  @UuidProperty()
  acknowledged_execution_id: string;

  @TimestampProperty()
  acknowledged_at: string;
}
