import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto';
import { MONTH_PATTERN } from '../usage-month';

function MonthField(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ example: '2030-05', description: 'UTC month; default: this month' })(
      target,
      key,
    );
    IsOptional()(target, key);
    Matches(MONTH_PATTERN, { message: `String should match pattern '${MONTH_PATTERN.source}'` })(
      target,
      key,
    );
  };
}

export class UsageQueryDto {
  @MonthField()
  month?: string;
}

export class AdminUsageQueryDto extends PageQueryDto {
  @MonthField()
  month?: string;
}
