import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { OptionalEnum } from '../../../common/validation/fields';
import { PageQueryDto } from '../../../common/dto/page-query.dto';
import { NOTIFICATION_TYPES, type NotificationType } from '../../channels/channel-registry';

/** `GET /api/v1/notifications/sends` (docs/api.md). */
export class ListSendsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: NOTIFICATION_TYPES })
  @OptionalEnum(NOTIFICATION_TYPES)
  notification_type?: NotificationType;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'Input should be a valid UUID' })
  task_id?: string;
}
