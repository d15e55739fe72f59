import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PagesModule } from '../pages/pages.module';
import { PageSnapshotsModule } from '../pages/snapshots/page-snapshots.module';
import { PageScreenshotsModule } from '../pages/browser/screenshots/page-screenshots.module';
import { UsersModule } from '../users/users.module';
import { SearchModule } from '../search/search.module';
import { UsageModule } from '../usage/usage.module';
import { CheckOutcomeRecorder } from './checks/check-outcome.recorder';
import { CheckOutcomeWriter } from './checks/check-outcome.writer';
import { CheckPagesWriter } from './checks/check-pages.writer';
import { CheckRunnerService } from './checks/check-runner.service';
import { CheckScheduleRepository } from './checks/check-schedule.repository';
import { CheckCaller } from './checks/check.caller';
import { CheckPageReader } from './checks/check-page.reader';
import { CheckClaimer } from './checks/check.claimer';
import { CheckPlanner } from './checks/check.planner';
import { CheckRunRepository } from './check-run.repository';
import { ExecutionRepository } from './execution.repository';
import { ExecutionSweepRepository } from './execution-sweep.repository';
import { ExecutionsController } from './executions.controller';
import { ExecutionsService } from './executions.service';
import { StaleExecutionSweeper } from './checks/stale-execution.sweeper';
import { StaleExecutionSweepTimer } from './checks/stale-execution-sweep.timer';

@Module({
  imports: [
    SearchModule,
    UsageModule,
    UsersModule,
    IdempotencyModule,
    PagesModule,
    PageSnapshotsModule,
    PageScreenshotsModule,
  ],
  controllers: [ExecutionsController],
  providers: [
    ExecutionsService,
    ExecutionRepository,
    CheckRunRepository,
    ExecutionSweepRepository,
    CheckScheduleRepository,
    CheckClaimer,
    CheckCaller,
    CheckPageReader,
    CheckPlanner,
    CheckOutcomeWriter,
    CheckPagesWriter,
    CheckOutcomeRecorder,
    CheckRunnerService,
    StaleExecutionSweeper,
    StaleExecutionSweepTimer,
  ],
  exports: [ExecutionsService, ExecutionRepository, ExecutionSweepRepository],
})
export class ExecutionsModule {}
