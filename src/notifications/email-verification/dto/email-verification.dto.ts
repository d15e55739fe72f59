import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, Matches } from 'class-validator';
import { TimestampProperty } from '../../../common/openapi/schema-properties';
import { RequiredText } from '../../../common/validation/fields';
import type { EmailVerificationStatus } from '../email-verification.entity';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** `POST /api/v1/email-verifications`. */
export class RequestEmailVerificationDto {
  @ApiProperty({ maxLength: 320, example: 'team@example.com' })
  @Transform(trimmed)
  @IsEmail({}, { message: 'value is not a valid email address' })
  @RequiredText({ min: 1, max: 320 })
  email: string;
}

/** `POST /api/v1/email-verifications/confirm`. */
export class ConfirmEmailVerificationDto extends RequestEmailVerificationDto {
  @ApiProperty({ example: '123456', description: 'The 6-digit code mailed to the address' })
  @Transform(trimmed)
  @Matches(/^\d{6}$/, { message: 'String should be a 6-digit code' })
  @RequiredText({ min: 6, max: 6 })
  code: string;
}

export class EmailVerificationResponse {
  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ['pending', 'verified'] })
  status: EmailVerificationStatus;
}

export class EmailVerificationListItem extends EmailVerificationResponse {
  @TimestampProperty({ nullable: true })
  verified_at: string | null;
}
