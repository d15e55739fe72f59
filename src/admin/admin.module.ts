import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { TasksModule } from '../tasks/tasks.module';
import { UsageModule } from '../usage/usage.module';
import { UsersModule } from '../users/users.module';
import { AdminController } from './admin.controller';
import { AdminListingsService } from './admin-listings.service';
import { ExecutionsModule } from '../executions/executions.module';
import { AdminRepository } from './admin.repository';
import { PlatformStatsService } from './platform-stats.service';
import { UserDeactivationService } from './user-deactivation.service';

@Module({
  imports: [UsersModule, TasksModule, ExecutionsModule, NotificationsModule, UsageModule],
  controllers: [AdminController],
  providers: [PlatformStatsService, AdminListingsService, UserDeactivationService, AdminRepository],
})
export class AdminModule {}
