import { Global, Injectable, Module } from '@nestjs/common';

/**
 * The time the service's rules read (schedules, months, retries, timestamps it writes). Injected,
 * so a test can set the time instead of waiting for it; the system clock otherwise.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
