import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalEnum, QueryInt } from '../../common/validation/fields';
import { EXECUTION_STATUSES, type ExecutionStatus } from '../execution.entity';

export const PAGE_MAX = 200;
export const PAGE_DEFAULT = 50;

export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT })
  @QueryInt({ min: 1, max: PAGE_MAX })
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @QueryInt({ min: 0 })
  offset?: number;
}

export class ListExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: EXECUTION_STATUSES })
  @OptionalEnum(EXECUTION_STATUSES)
  status?: ExecutionStatus;
}
