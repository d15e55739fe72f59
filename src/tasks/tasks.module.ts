import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionEntity } from '../executions/execution.entity';
import { ExecutionsModule } from '../executions/executions.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { SearchModule } from '../search/search.module';
import { UsageModule } from '../usage/usage.module';
import { GroundedSearchService } from './grounded-search.service';
import { TaskCreationService } from './task-creation.service';
import { TaskSharingController } from './task-sharing.controller';
import { TaskSharingService } from './task-sharing.service';
import { TaskEntity } from './task.entity';
import { TasksController } from './tasks.controller';
import { TaskRepository } from './task.repository';
import { TasksService } from './tasks.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([TaskEntity, ExecutionEntity]),
    ExecutionsModule,
    NotificationsModule,
    SearchModule,
    UsageModule,
  ],
  controllers: [TasksController, TaskSharingController],
  providers: [
    TasksService,
    GroundedSearchService,
    TaskCreationService,
    TaskSharingService,
    TaskRepository,
  ],
  exports: [TasksService, TaskRepository],
})
export class TasksModule {}
