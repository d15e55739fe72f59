import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { PageQueryDto } from '../common/dto/page-query.dto';
import { ListSendsQueryDto } from './dto/list-sends-query.dto';
import type { SendHistoryResponse, TaskNotificationResponse } from './dto/notification-responses';
import { TestNotificationDto, type TestNotificationResponse } from './dto/test-notification.dto';
import { NotificationsService } from './notifications.service';
import { TestNotificationService } from './test-notification.service';

/**
 * Notification history. `GET /api/v1/notifications` itself does not exist (interface document).
 * The task-scoped route lives here, next to the send history, because both read notifications.
 */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/v1')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly tests: TestNotificationService,
  ) {}

  @Get('notifications/sends')
  listSends(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: ListSendsQueryDto,
  ): Promise<SendHistoryResponse> {
    return this.notifications.listSendHistory(caller, query);
  }

  @Get('tasks/:task_id/notifications')
  @OptionalAuth()
  listForTask(
    @CurrentUser() caller: AuthenticatedUser | undefined,
    @Param('task_id', UuidParamPipe) taskId: string,
    @Query() query: PageQueryDto,
  ): Promise<TaskNotificationResponse[]> {
    return this.notifications.listTaskNotifications(caller, taskId, query);
  }

  @Post('tasks/:task_id/notifications/test')
  @HttpCode(200)
  sendTest(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('task_id', UuidParamPipe) taskId: string,
    @Body() body: TestNotificationDto,
  ): Promise<TestNotificationResponse> {
    return this.tests.sendTestNotifications(caller, taskId, body.type);
  }
}
