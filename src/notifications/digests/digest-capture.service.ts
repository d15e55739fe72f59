import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { digestPeriod, nextDigestAt, type DigestPeriod } from '../../attention/local-time';
import { DEFAULT_PREFERENCES, type Preferences } from '../../attention/preferences';
import { JobQueueService } from '../../scheduler/job-queue.service';
import type { NotificationConfig } from '../channels/channel-registry';
import type { ClaimedAttempt } from '../delivery/claimed-attempt';
import { digestJobId, type DigestPeriodJobData } from './digest-job';
import { DigestRepository } from './digest.repository';

/** An attempt whose config gathers its events into digests, with its owner's preferences. */
export interface DigestCandidate {
  claim: ClaimedAttempt;
  preferences: Preferences | null;
}

/** A capture finds an open period within this many periods (one is the rule, two a race). */
const MAX_PERIODS_AHEAD = 3;

/** Whether a config's events wait for the digest (docs/attention.md, "Digests"). */
export function goesToDigest(config: NotificationConfig): boolean {
  return config.delivery === 'digest';
}

/**
 * Captures events of digest configs (docs/attention.md, "Digests"): instead of being sent, the
 * delivery is `held` (attempt 0, `hold_reason` digest) until the end of its owner's digest
 * period, with a `held` send record, and the period's job is queued (one per user and period,
 * due at its end).
 */
@Injectable()
export class DigestCapture {
  constructor(
    private readonly repository: DigestRepository,
    private readonly queue: JobQueueService,
  ) {}

  /**
   * In the caller's transaction, after its tasks are held (docs/architecture.md, "One lock
   * order"). Each event goes into the period that ends next after `now`; when that period's
   * job has already been handed to a worker (its end has come), into the one after.
   */
  async capture(manager: EntityManager, candidates: DigestCandidate[], now: Date): Promise<void> {
    if (candidates.length === 0) return;
    let pending = candidates.map((candidate) => ({
      candidate,
      preferences: candidate.preferences ?? DEFAULT_PREFERENCES,
      after: now,
    }));
    for (let round = 0; round < MAX_PERIODS_AHEAD && pending.length > 0; round++) {
      const planned = pending.map((entry) => {
        const period = digestPeriod(
          nextDigestAt(entry.after, entry.preferences),
          entry.preferences,
        );
        return {
          ...entry,
          period,
          jobId: digestJobId(entry.candidate.claim.userId, period.period_end),
        };
      });
      // Each job once, in id order: captures running at once insert the same jobs in one order.
      const jobs = new Map(
        planned.map((entry) => [
          entry.jobId,
          {
            id: entry.jobId,
            data: jobData(entry.candidate.claim.userId, entry.period),
            startAfter: entry.period.period_end,
          },
        ]),
      );
      await this.queue.enqueueDigests(
        manager,
        [...jobs.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      const open = await this.repository.lockOpenPeriods(
        manager,
        planned.map((entry) => entry.jobId),
      );
      await this.repository.holdForDigest(
        manager,
        planned
          .filter((entry) => open.has(entry.jobId))
          .map(({ candidate: { claim }, period, jobId }) => ({
            deliveryId: claim.deliveryId,
            executionId: claim.executionId,
            taskId: claim.taskId,
            userId: claim.userId,
            channel: claim.channel,
            event: claim.event,
            jobId,
            periodEnd: period.period_end,
            recipient: claim.recipient,
            heldAt: now,
          })),
      );
      pending = planned
        .filter((entry) => !open.has(entry.jobId))
        .map((entry) => ({ ...entry, after: entry.period.period_end }));
    }
    if (pending.length > 0) throw new Error('No open digest period to capture into');
  }
}

function jobData(userId: string, period: DigestPeriod): DigestPeriodJobData {
  return {
    userId,
    periodStart: period.period_start.toISOString(),
    periodEnd: period.period_end.toISOString(),
  };
}
