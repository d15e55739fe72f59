import { ApiProperty } from '@nestjs/swagger';
import { ValidationIssue } from '../errors/validation-issue';

/** The body of every error but 422 (docs/api.md, "Errors"). */
export class ErrorResponse {
  @ApiProperty({ description: 'What went wrong, in words', example: 'Task not found' })
  detail: string;
}

/** 422: `detail` is the list of rejected inputs. */
export class ValidationErrorResponse {
  @ApiProperty({ type: [ValidationIssue] })
  detail: ValidationIssue[];
}

/** 429: the limit's own body; the X-RateLimit-* and Retry-After headers go with it. */
export class RateLimitErrorResponse extends ErrorResponse {
  @ApiProperty({
    type: 'integer',
    description: 'Seconds until the window that refused the request opens again',
  })
  retry_after: number;
}
