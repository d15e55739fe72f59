import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
import { ExecutionRetentionSweeper } from './execution-retention.sweeper';

/** How long executions are kept (docs/operations.md, "Retention"). */
@Module({
  imports: [ExecutionsModule],
  providers: [ExecutionRetentionSweeper],
})
export class RetentionModule {}
