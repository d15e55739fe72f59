import { Global, Module } from '@nestjs/common';
import { TransactionRunner } from './transaction-runner';

/** What every feature's services get to reach the database besides their repositories. */
@Global()
@Module({ providers: [TransactionRunner], exports: [TransactionRunner] })
export class DatabaseModule {}
