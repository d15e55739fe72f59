import { TaskAttentionService } from './task-attention.service';
import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { PagesModule } from '../pages/pages.module';
import { PageSnapshotsModule } from '../pages/snapshots/page-snapshots.module';
import { PageScreenshotsModule } from '../pages/browser/screenshots/page-screenshots.module';
import { SearchModule } from '../search/search.module';
import { UsageModule } from '../usage/usage.module';
import { UsersModule } from '../users/users.module';
import { GroundedSearchService } from './grounded-search.service';
import { TaskCreationService } from './task-creation.service';
import { TaskSharingController } from './task-sharing.controller';
import { TaskSharingService } from './task-sharing.service';
import { TasksController } from './tasks.controller';
import { PublicTaskRepository } from './public-task.repository';
import { TaskRepository } from './task.repository';
import { TaskChanges } from './task-changes.service';
import { TaskDefinitions } from './task-definitions.service';
import { TaskQueries } from './task-queries.service';
import { TaskSchedule } from './task-schedule.service';

@Module({
  imports: [
    ExecutionsModule,
    UsersModule,
    NotificationsModule,
    SearchModule,
    UsageModule,
    IdempotencyModule,
    PagesModule,
    PageSnapshotsModule,
    PageScreenshotsModule,
  ],
  controllers: [TasksController, TaskSharingController],
  providers: [
    TaskChanges,
    TaskQueries,
    TaskDefinitions,
    TaskSchedule,
    GroundedSearchService,
    TaskCreationService,
    TaskAttentionService,
    TaskSharingService,
    TaskRepository,
    PublicTaskRepository,
  ],
  exports: [
    TaskChanges,
    TaskQueries,
    TaskRepository,
    PublicTaskRepository,
    TaskCreationService,
    GroundedSearchService,
  ],
})
export class TasksModule {}
