import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '../validation/fields';

export const PAGE_MAX = 200;
export const PAGE_DEFAULT = 50;
/** Deeper pages are refused (422): no list needs them, and the database would scan to reach them. */
export const OFFSET_MAX = 1_000_000;

/** `offset` of every paged list. */
export const QueryOffset = (): PropertyDecorator => QueryInt({ min: 0, max: OFFSET_MAX });

/** `limit` and `offset` of the lists that share the default paging bounds. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT })
  @QueryInt({ min: 1, max: PAGE_MAX })
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: OFFSET_MAX, default: 0 })
  @QueryOffset()
  offset?: number;
}
