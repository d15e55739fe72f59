import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { SearchModule } from '../search/search.module';
import { UsageModule } from '../usage/usage.module';
import { CheckRunnerService } from './check-runner.service';
import { CheckScheduleRepository } from './check-schedule.repository';
import { CheckWorkerService } from './check-worker.service';
import { ExecutionRepository } from './execution.repository';
import { ExecutionsController } from './executions.controller';
import { ExecutionsService } from './executions.service';
import { StaleExecutionSweeper } from './stale-execution.sweeper';

@Module({
  imports: [SearchModule, UsageModule, UsersModule],
  controllers: [ExecutionsController],
  providers: [
    ExecutionsService,
    ExecutionRepository,
    CheckScheduleRepository,
    CheckRunnerService,
    CheckWorkerService,
    StaleExecutionSweeper,
  ],
  exports: [ExecutionsService, ExecutionRepository],
})
export class ExecutionsModule {}
