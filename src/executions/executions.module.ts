import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SearchModule } from '../search/search.module';
import { TaskEntity } from '../tasks/task.entity';
import { UsageModule } from '../usage/usage.module';
import { CheckRunnerService } from './check-runner.service';
import { CheckWorkerService } from './check-worker.service';
import { ExecutionEntity } from './execution.entity';
import { ExecutionsController } from './executions.controller';
import { ExecutionsService } from './executions.service';
import { StaleExecutionSweeper } from './stale-execution.sweeper';

@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEntity, TaskEntity]), SearchModule, UsageModule],
  controllers: [ExecutionsController],
  providers: [ExecutionsService, CheckRunnerService, CheckWorkerService, StaleExecutionSweeper],
  exports: [ExecutionsService],
})
export class ExecutionsModule {}
