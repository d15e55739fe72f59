import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PAGE_DEFAULT, type PageQueryDto } from '../common/dto/page-query.dto';
import { ExecutionEntity } from '../executions/execution.entity';
import { TaskEntity } from '../tasks/task.entity';
import type { ListSendsQueryDto } from './dto/list-sends-query.dto';
import type { SendHistoryResponse, TaskNotificationResponse } from './dto/notification-responses';
import { toSendRecordResponse, toTaskNotificationResponse } from './notification.mapper';
import { NotificationSendEntity } from './notification-send.entity';

/** The read side of notifications: send history and a task's met conditions. */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectRepository(NotificationSendEntity)
    private readonly sends: Repository<NotificationSendEntity>,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
  ) {}

  /** Every attempt on the caller's tasks, newest first (ix_notification_sends_user_id_created_at). */
  async listSendHistory(
    caller: AuthenticatedUser,
    query: ListSendsQueryDto,
  ): Promise<SendHistoryResponse> {
    const [sends, total] = await this.sends.findAndCount({
      where: {
        userId: caller.id,
        ...(query.notification_type ? { notificationType: query.notification_type } : {}),
        ...(query.task_id ? { taskId: query.task_id.toLowerCase() } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit ?? PAGE_DEFAULT,
      skip: query.offset ?? 0,
    });
    return { sends: sends.map(toSendRecordResponse), total };
  }

  /**
   * Executions of a task that met its condition, newest first
   * (ix_executions_met_task_id_created_at). Readable like the execution history: by the owner,
   * or by anyone when the task is public; otherwise the task does not exist for the caller.
   */
  async listTaskNotifications(
    caller: AuthenticatedUser | undefined,
    taskId: string,
    query: PageQueryDto,
  ): Promise<TaskNotificationResponse[]> {
    const task = await this.tasks.findOne({
      where: { id: taskId },
      select: { id: true, userId: true, isPublic: true, name: true },
    });
    if (!task || (task.userId !== caller?.id && !task.isPublic)) {
      throw new NotFoundException('Task not found');
    }
    const executions = await this.executions.find({
      where: { taskId, conditionMet: true },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit ?? PAGE_DEFAULT,
      skip: query.offset ?? 0,
    });
    return executions.map((execution) => toTaskNotificationResponse(execution, task.name));
  }
}
