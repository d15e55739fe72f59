import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
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
  imports: [TasksModule, ExecutionsModule],
  controllers: [PublicTasksController, TaskFeedController, WaitlistController],
  providers: [PublicTasksService, TaskFeedService, WaitlistService, WaitlistRepository],
})
export class PublicModule {}
