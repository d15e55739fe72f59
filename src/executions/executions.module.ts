import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SearchModule } from '../search/search.module';
import { TaskEntity } from '../tasks/task.entity';
import { UsageModule } from '../usage/usage.module';
import { CheckRunnerService } from './check-runner.service';
import { CheckScheduleRepository } from './check-schedule.repository';
import { CheckWorkerService } from './check-worker.service';
import { ExecutionEntity } from './execution.entity';
import { ExecutionRepository } from './execution.repository';
import { ExecutionsController } from './executions.controller';
import { ExecutionsService } from './executions.service';
import { StaleExecutionSweeper } from './stale-execution.sweeper';

@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEntity, TaskEntity]), SearchModule, UsageModule],
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
