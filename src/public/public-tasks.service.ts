import { Injectable, NotFoundException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { TaskEntity } from '../tasks/task.entity';
import { TaskResponse } from '../tasks/task.mapper';
import { TASK_NOT_FOUND, TasksService } from '../tasks/tasks.service';
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
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly taskResponses: TasksService,
  ) {}

  /** Served by ix_tasks_public_created_at (recent) and ix_tasks_public_view_count (popular). */
  async listPublicTasks(query: ListPublicTasksQueryDto): Promise<PublicTaskPage> {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PUBLIC_PAGE_DEFAULT;
    const [tasks, total] = await this.tasks.findAndCount({
      where: { isPublic: true },
      order:
        query.sort_by === 'popular'
          ? { viewCount: 'DESC', subscriberCount: 'DESC', createdAt: 'DESC', id: 'DESC' }
          : { createdAt: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { tasks: await this.taskResponses.toResponses(tasks, 'public'), total, offset, limit };
  }

  /**
   * Counts a view in the task row itself, so every reader (the owner, the lists, other instances)
   * sees the same count at once; the answer includes this view. Views are limited per IP, which
   * bounds the writes.
   */
  async viewPublicTask(taskId: string): Promise<TaskResponse> {
    const counted = await this.tasks.increment({ id: taskId, isPublic: true }, 'viewCount', 1);
    const task = counted.affected
      ? await this.tasks.findOneBy({ id: taskId, isPublic: true })
      : null;
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    return (await this.taskResponses.toResponses([task], 'public'))[0];
  }
}
