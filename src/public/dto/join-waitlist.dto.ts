import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail } from 'class-validator';
import { RequiredText } from '../../common/validation/fields';

export class JoinWaitlistDto {
  @ApiProperty({ maxLength: 320, example: 'ada@example.com' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsEmail({}, { message: 'value is not a valid email address' })
  @RequiredText({ min: 1, max: 320 })
  email: string;
}
