import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { PageQueryDto } from '../common/dto/page-query.dto';
import { ListSendsQueryDto } from './history/dto/list-sends-query.dto';
import {
  SendHistoryResponse,
  TaskNotificationResponse,
} from './history/dto/notification-responses';
import {
  TestNotificationDto,
  TestNotificationResponse,
} from './test-sends/dto/test-notification.dto';
import { NotificationHistoryService } from './history/notification-history.service';
import { TestNotificationService } from './test-sends/test-notification.service';

/**
 * Notification history. `GET /api/v1/notifications` itself does not exist (docs/api.md).
 * The task-scoped route lives here, next to the send history, because both read notifications.
 */
@ApiTags('notifications')
@ApiCredentials()
@Controller('api/v1')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationHistoryService,
    private readonly tests: TestNotificationService,
  ) {}

  @Get('notifications/sends')
  @ApiRoute({
    summary: "List send attempts across the caller's tasks, newest first",
    response: SendHistoryResponse,
    errors: [422],
  })
  listSends(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: ListSendsQueryDto,
  ): Promise<SendHistoryResponse> {
    return this.notifications.listSendHistory(caller, query);
  }

  @Get('tasks/:task_id/notifications')
  @OptionalAuth()
  @ApiRoute({
    summary: "List a task's executions that met their condition, newest first",
    response: [TaskNotificationResponse],
    errors: [404, 422],
  })
  listForTask(
    @CurrentUser() caller: AuthenticatedUser | undefined,
    @Param('task_id', UuidParamPipe) taskId: string,
    @Query() query: PageQueryDto,
  ): Promise<TaskNotificationResponse[]> {
    return this.notifications.listTaskNotifications(caller, taskId, query);
  }

  @Post('tasks/:task_id/notifications/test')
  @HttpCode(200)
  @ApiRoute({
    summary: "Send a test event through the task's notification configs now, one attempt each",
    response: TestNotificationResponse,
    errors: [400, 404, 413, 422],
  })
  sendTest(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('task_id', UuidParamPipe) taskId: string,
    @Body() body: TestNotificationDto,
  ): Promise<TestNotificationResponse> {
    return this.tests.sendTestNotifications(caller, taskId, body.type);
  }
}
