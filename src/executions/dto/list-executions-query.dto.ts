import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageQueryDto } from '../../common/dto/page-query.dto';
import { OptionalEnum } from '../../common/validation/fields';
import { EXECUTION_STATUSES, type ExecutionStatus } from '../execution.entity';

export class ListExecutionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: EXECUTION_STATUSES })
  @OptionalEnum(EXECUTION_STATUSES)
  status?: ExecutionStatus;
}
