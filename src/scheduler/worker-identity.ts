import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** This process's worker id: running executions carry it, and its heartbeat vouches for them. */
@Injectable()
export class WorkerIdentity {
  readonly id = randomUUID();
  private lastBeatSentAt = Number.NEGATIVE_INFINITY;

  /** When (`performance.now()`) the last heartbeat that was stored was sent; none yet: -∞. */
  get lastBeatAt(): number {
    return this.lastBeatSentAt;
  }

  /** A heartbeat sent at `sentAt` (`performance.now()`) was stored. */
  beatStored(sentAt: number): void {
    this.lastBeatSentAt = Math.max(this.lastBeatSentAt, sentAt);
  }
}
