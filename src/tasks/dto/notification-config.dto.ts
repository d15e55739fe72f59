import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * Documentation shape of one element of `notifications`. Validation is done by
 * `NotificationConfigValidator` (it needs DNS for the SSRF guard and gives 400
 * `Invalid notification: ...` messages rather than 422s).
 */
export class NotificationConfigDto {
  @ApiProperty({ enum: ['email', 'webhook'] })
  type: 'email' | 'webhook';

  @ApiPropertyOptional({ description: 'email: the recipient address' })
  address?: string;

  @ApiPropertyOptional({ description: 'webhook: an http(s) URL' })
  url?: string;

  @ApiPropertyOptional({ enum: ['POST', 'PUT', 'PATCH'], default: 'POST' })
  method?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  headers?: Record<string, string>;
}
