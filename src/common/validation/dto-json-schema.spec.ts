import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { dtoJsonSchema } from './dto-json-schema';
import { OptionalBoolean, OptionalEnum, QueryInt, RequiredText } from './fields';

class InnerDto {
  @RequiredText({ max: 20 })
  label: string;
}

class SampleDto {
  @ApiPropertyOptional({ description: 'What to look for' })
  @RequiredText({ min: 3, max: 50 })
  query: string;

  @OptionalEnum(['a', 'b'])
  mode?: string;

  @QueryInt({ min: 1, max: 10 })
  limit?: number;

  @OptionalBoolean()
  force?: boolean;

  @IsOptional()
  @Matches(/^\d{4}$/)
  year?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => InnerDto)
  inner?: InnerDto;

  @ValidateIf((dto: SampleDto) => dto.year === undefined)
  @RequiredText()
  era?: string;
}

describe('dtoJsonSchema', () => {
  it('should state the bounds of the class-validator rules, a field required under a condition optional, when given a DTO', () => {
    expect(dtoJsonSchema(SampleDto)).toEqual({
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 3, maxLength: 50, description: 'What to look for' },
        mode: { enum: ['a', 'b'] },
        limit: { type: 'integer', minimum: 1, maximum: 10 },
        force: { type: 'boolean' },
        year: { type: 'string', pattern: '^\\d{4}$' },
        inner: {
          type: 'object',
          required: ['label'],
          properties: { label: { type: 'string', maxLength: 20 } },
        },
        era: { type: 'string' },
      },
    });
  });
});
