import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TaskEntity } from '../../tasks/task.entity';
import { NotificationSendEntity } from './notification-send.entity';
import type { NotificationType } from '../channels/channel-registry';

/** The read side of send records (table `notification_sends`). */
@Injectable()
export class NotificationSendRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A user's send records, newest first (ix_notification_sends_user_id_created_at), and how many. */
  pageOfUser(
    userId: string,
    filter: { notificationType?: NotificationType; taskId?: string; limit: number; offset: number },
  ): Promise<[NotificationSendEntity[], number]> {
    return this.dataSource.getRepository(NotificationSendEntity).findAndCount({
      where: {
        userId,
        ...(filter.notificationType ? { notificationType: filter.notificationType } : {}),
        ...(filter.taskId ? { taskId: filter.taskId } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: filter.limit,
      skip: filter.offset,
    });
  }

  /** What decides who may read a task's notifications: its owner, visibility and name. */
  findTaskHeader(
    taskId: string,
  ): Promise<Pick<TaskEntity, 'id' | 'userId' | 'isPublic' | 'name'> | null> {
    return this.dataSource.getRepository(TaskEntity).findOne({
      where: { id: taskId },
      select: { id: true, userId: true, isPublic: true, name: true },
    });
  }
}
