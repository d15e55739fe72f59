import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { clientNetwork } from '../common/http/client-network';
import { PublicTaskRepository } from '../tasks/public-task.repository';
import type { TaskWithLastExecution } from '../tasks/task.repository';
import { TaskResponse, toTaskResponse } from '../tasks/task.mapper';
import { TASK_NOT_FOUND } from '../tasks/task-queries.service';
import {
  PUBLIC_PAGE_DEFAULT,
  type ListPublicTasksQueryDto,
} from './dto/list-public-tasks-query.dto';

export class PublicTaskPage {
  @ApiProperty({ type: [TaskResponse], description: 'Public tasks, without owner data' })
  tasks: TaskResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  offset: number;

  @ApiProperty({ type: 'integer' })
  limit: number;
}

/**
 * The anonymous reads of public tasks. Every task leaves through `toTaskResponse(..., 'public')`,
 * so no owner id, notification config or error detail is ever in these answers.
 */
@Injectable()
export class PublicTasksService {
  constructor(private readonly taskRows: PublicTaskRepository) {}

  async listPublicTasks(query: ListPublicTasksQueryDto): Promise<PublicTaskPage> {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PUBLIC_PAGE_DEFAULT;
    const page = await this.taskRows.listPublic(query.sort_by ?? 'recent', offset, limit);
    return { tasks: page.tasks.map(publicResponse), total: page.total, offset, limit };
  }

  /**
   * Counts a view in the task row itself, so every reader (the owner, the lists, other instances)
   * sees the same count at once; the answer includes this view. A view counts at most once per
   * task, client network (`clientNetwork`: an IPv6 client by its /64) and hour (docs/api.md,
   * "Tasks").
   */
  async viewPublicTask(taskId: string, clientAddress: string): Promise<TaskResponse> {
    const found = await this.taskRows.countPublicView(taskId, clientNetwork(clientAddress));
    if (!found) throw new NotFoundException(TASK_NOT_FOUND);
    return publicResponse(found);
  }
}

function publicResponse({ task, lastExecution }: TaskWithLastExecution): TaskResponse {
  return toTaskResponse(task, 'public', lastExecution);
}
