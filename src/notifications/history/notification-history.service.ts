import { Injectable, NotFoundException } from '@nestjs/common';
import type { AuthenticatedUser } from '../../auth/authenticated-user';
import { PAGE_DEFAULT, type PageQueryDto } from '../../common/dto/page-query.dto';
import { ExecutionRepository } from '../../executions/execution.repository';
import type { ListSendsQueryDto } from './dto/list-sends-query.dto';
import type { SendHistoryResponse, TaskNotificationResponse } from './dto/notification-responses';
import { toSendRecordResponse, toTaskNotificationResponse } from './notification.mapper';
import { NotificationSendRepository } from './notification-send.repository';

/** The read side of notifications: send history and a task's met conditions. */
@Injectable()
export class NotificationHistoryService {
  constructor(
    private readonly sends: NotificationSendRepository,
    private readonly executions: ExecutionRepository,
  ) {}

  /** Every attempt on the caller's tasks, newest first (ix_notification_sends_user_id_created_at). */
  async listSendHistory(
    caller: AuthenticatedUser,
    query: ListSendsQueryDto,
  ): Promise<SendHistoryResponse> {
    const [sends, total] = await this.sends.pageOfUser(caller.id, {
      notificationType: query.notification_type,
      taskId: query.task_id?.toLowerCase(),
      limit: query.limit ?? PAGE_DEFAULT,
      offset: query.offset ?? 0,
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
    const task = await this.sends.findTaskHeader(taskId);
    if (!task || (task.userId !== caller?.id && !task.isPublic)) {
      throw new NotFoundException('Task not found');
    }
    const executions = await this.executions.listMet(
      taskId,
      query.limit ?? PAGE_DEFAULT,
      query.offset ?? 0,
    );
    return executions.map((execution) => toTaskNotificationResponse(execution, task.name));
  }
}
