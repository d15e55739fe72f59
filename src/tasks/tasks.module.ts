import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionEntity } from '../executions/execution.entity';
import { ExecutionsModule } from '../executions/executions.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { SearchModule } from '../search/search.module';
import { TaskCreationService } from './task-creation.service';
import { TaskEntity } from './task.entity';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([TaskEntity, ExecutionEntity]),
    ExecutionsModule,
    NotificationsModule,
    SearchModule,
  ],
  controllers: [TasksController],
  providers: [TasksService, TaskCreationService],
  exports: [TasksService],
})
export class TasksModule {}
