import { IntersectionType, PickType } from '@nestjs/swagger';
import { PAGE_DEFAULT, PageQueryDto } from '../../common/dto/page-query.dto';
import { ListTasksQueryDto } from '../../tasks/dto/list-tasks-query.dto';

/**
 * `list_tasks`'s arguments: the state filter of `GET /api/v1/tasks` with the paging of the other
 * lists (`limit` 1 to 200, default 50), so an agent reads a page, never every task at once
 * (docs/api.md, "MCP").
 */
export class ListTasksArgumentsDto extends IntersectionType(
  PickType(ListTasksQueryDto, ['state'] as const),
  PageQueryDto,
) {
  override limit?: number = PAGE_DEFAULT;
}
