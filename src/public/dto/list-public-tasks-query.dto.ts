import { ApiPropertyOptional } from '@nestjs/swagger';
import { OFFSET_MAX, QueryOffset } from '../../common/dto/page-query.dto';
import { OptionalEnum, QueryInt } from '../../common/validation/fields';

export const PUBLIC_PAGE_DEFAULT = 20;
export const PUBLIC_PAGE_MAX = 100;
export const PUBLIC_SORTS = ['recent', 'popular'] as const;
export type PublicSort = (typeof PUBLIC_SORTS)[number];

export class ListPublicTasksQueryDto {
  @ApiPropertyOptional({ minimum: 0, maximum: OFFSET_MAX, default: 0 })
  @QueryOffset()
  offset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: PUBLIC_PAGE_MAX, default: PUBLIC_PAGE_DEFAULT })
  @QueryInt({ min: 1, max: PUBLIC_PAGE_MAX })
  limit?: number;

  @ApiPropertyOptional({
    enum: PUBLIC_SORTS,
    default: 'recent',
    description: 'recent: newest first; popular: most viewed, then most forked',
  })
  @OptionalEnum(PUBLIC_SORTS)
  sort_by?: PublicSort;
}
