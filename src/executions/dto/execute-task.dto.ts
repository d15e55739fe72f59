import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalBoolean, QueryBoolean } from '../../common/validation/fields';

/** `force` may come as `?force=true` or as `{"force": true}` (docs/api.md). */
export class ExecuteTaskQueryDto {
  @ApiPropertyOptional({ description: 'Cancel a pending or running execution and start a new one' })
  @QueryBoolean()
  force?: boolean;
}

export class ExecuteTaskBodyDto {
  @ApiPropertyOptional()
  @OptionalBoolean()
  force?: boolean;
}
