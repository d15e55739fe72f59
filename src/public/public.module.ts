import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionEntity } from '../executions/execution.entity';
import { TaskEntity } from '../tasks/task.entity';
import { TasksModule } from '../tasks/tasks.module';
import { PublicTasksController } from './public-tasks.controller';
import { PublicTasksService } from './public-tasks.service';
import { TaskFeedController } from './task-feed.controller';
import { TaskFeedService } from './task-feed.service';
import { WaitlistController } from './waitlist.controller';
import { WaitlistRepository } from './waitlist.repository';
import { WaitlistService } from './waitlist.service';

/** The unauthenticated surfaces: public task pages, their RSS feeds and the waitlist. */
@Module({
  imports: [TypeOrmModule.forFeature([TaskEntity, ExecutionEntity]), TasksModule],
  controllers: [PublicTasksController, TaskFeedController, WaitlistController],
  providers: [PublicTasksService, TaskFeedService, WaitlistService, WaitlistRepository],
})
export class PublicModule {}
