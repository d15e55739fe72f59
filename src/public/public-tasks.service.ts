import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { TaskEntity } from '../tasks/task.entity';
import type { TaskResponse } from '../tasks/task.mapper';
import { TASK_NOT_FOUND, TasksService } from '../tasks/tasks.service';
import {
  PUBLIC_PAGE_DEFAULT,
  type ListPublicTasksQueryDto,
} from './dto/list-public-tasks-query.dto';
import { TaskViewCounterService } from './task-view-counter.service';

export interface PublicTaskPage {
  tasks: TaskResponse[];
  total: number;
  offset: number;
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
    private readonly views: TaskViewCounterService,
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
    for (const task of tasks) task.viewCount += this.views.unwrittenViews(task.id);
    return { tasks: await this.taskResponses.toResponses(tasks, 'public'), total, offset, limit };
  }

  /** Counts a view; the answer includes it even before the counter is written. */
  async viewPublicTask(taskId: string): Promise<TaskResponse> {
    const task = await this.tasks.findOneBy({ id: taskId, isPublic: true });
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    task.viewCount += this.views.recordView(task.id);
    return (await this.taskResponses.toResponses([task], 'public'))[0];
  }
}
