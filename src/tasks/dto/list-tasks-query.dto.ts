import { ApiPropertyOptional } from '@nestjs/swagger';
import { OFFSET_MAX, QueryOffset } from '../../common/dto/page-query.dto';
import { OptionalEnum, QueryInt } from '../../common/validation/fields';

/** The largest page of `GET /api/v1/tasks`: `MAX_TASKS_PER_USER`'s default. */
export const TASK_LIST_PAGE_MAX = 1000;

/**
 * `GET /api/v1/tasks` (docs/api.md, "Tasks"): without `limit` it answers every task, which the
 * per-user task cap bounds; with it, a page.
 */
export class ListTasksQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'paused', 'completed'] })
  @OptionalEnum(['active', 'paused', 'completed'])
  state?: 'active' | 'paused' | 'completed';

  @ApiPropertyOptional({
    minimum: 1,
    maximum: TASK_LIST_PAGE_MAX,
    description: 'Page size; unset: every task',
  })
  @QueryInt({ min: 1, max: TASK_LIST_PAGE_MAX })
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: OFFSET_MAX, default: 0 })
  @QueryOffset()
  offset?: number;
}
