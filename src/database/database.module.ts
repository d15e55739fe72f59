import { Global, Module } from '@nestjs/common';
import { DatabaseSignals } from './database-signals';
import { TransactionRunner } from './transaction-runner';

/** What every feature's services get to reach the database besides their repositories. */
@Global()
@Module({
  providers: [TransactionRunner, DatabaseSignals],
  exports: [TransactionRunner, DatabaseSignals],
})
export class DatabaseModule {}
