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
import { CheckRunnerService } from './checks/check-runner.service';
import { CheckScheduleRepository } from './checks/check-schedule.repository';
import { CheckCaller } from './checks/check.caller';
import { CheckPageReader } from './checks/check-page.reader';
import { CheckClaimer } from './checks/check.claimer';
import { CheckPlanner } from './checks/check.planner';
import { ExecutionRepository } from './execution.repository';
import { ExecutionsController } from './executions.controller';
import { ExecutionsService } from './executions.service';
import { StaleExecutionSweeper } from './checks/stale-execution.sweeper';

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
    CheckScheduleRepository,
    CheckClaimer,
    CheckCaller,
    CheckPageReader,
    CheckPlanner,
    CheckOutcomeWriter,
    CheckOutcomeRecorder,
    CheckRunnerService,
    StaleExecutionSweeper,
  ],
  exports: [ExecutionsService, ExecutionRepository],
})
export class ExecutionsModule {}
