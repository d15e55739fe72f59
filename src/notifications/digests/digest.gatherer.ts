import { Injectable } from '@nestjs/common';
import { groupDigest, type DigestItem } from '../../attention/decisions/digest-grouping';
import { TransactionRunner } from '../../database/transaction-runner';
import { DIGEST_QUEUE, JobQueueService, type QueueJob } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { contentOf } from '../delivery/claimed-attempt';
import { CHANNEL_REMOVED } from '../delivery/delivery-attempt.runner';
import { NotificationDeliveryRepository } from '../delivery/notification-delivery.repository';
import type { ClaimedDigestJob, DigestEvent } from './claimed-digest';
import {
  digestIdFor,
  isDigestAttempt,
  type DigestAttemptJobData,
  type DigestJobData,
  type DigestPeriodJobData,
} from './digest-job';
import {
  DigestRepository,
  type ClaimedDigestRow,
  type DigestPeriodKey,
  type DigestWrite,
} from './digest.repository';

/** The digests a batch of jobs sends, and each digest's events, oldest first. */
export interface GatheredDigests {
  claimed: ClaimedDigestJob[];
  events: Map<string, DigestEvent[]>;
}

/**
 * Gathers what a batch of digest jobs sends (docs/attention.md, "Digests"): a period's job
 * gathers its user's held digest deliveries per destination, as each channel says its digests
 * gather (`groupDigest`), into one digest row each, claimed (committed) before anything is sent;
 * a retry's job claims its attempt. A digest's id is derived from (user, destination, period
 * end), so another instance or a run after a crash finds the same row.
 */
@Injectable()
export class DigestGatherer {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly repository: DigestRepository,
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly channels: NotificationChannelRegistry,
    private readonly worker: WorkerIdentity,
  ) {}

  /** The claimed digests of `jobs` with their events; jobs with nothing to send are settled. */
  async gather(jobs: Array<QueueJob<DigestJobData>>): Promise<GatheredDigests> {
    const claimed = [
      ...(await this.gatherPeriods(
        jobs.flatMap((job) => (isDigestAttempt(job.data) ? [] : [{ id: job.id, data: job.data }])),
      )),
      ...(await this.claimRetries(
        jobs.flatMap((job) => (isDigestAttempt(job.data) ? [{ id: job.id, data: job.data }] : [])),
      )),
    ];
    const events = await this.loadEvents(
      claimed.flatMap((job) => job.digests.map((row) => row.id)),
    );
    return { claimed, events };
  }

  /**
   * Gathers the periods' held deliveries into digests and claims their first attempts, in one
   * transaction (tasks first: docs/architecture.md, "One lock order"). A period with nothing to
   * send completes; one whose digest is under way on another live worker is sent back to the
   * queue, to be looked at again once that worker is done or dead.
   */
  private async gatherPeriods(
    jobs: Array<{ id: string; data: DigestPeriodJobData }>,
  ): Promise<ClaimedDigestJob[]> {
    if (jobs.length === 0) return [];
    const periods = jobs.map((job) => ({
      jobId: job.id,
      userId: job.data.userId,
      periodStart: new Date(job.data.periodStart),
      periodEnd: new Date(job.data.periodEnd),
    }));
    const held = await this.repository.findHeldDeliveries(periods);
    const contexts = new Map(
      (await this.deliveries.loadAttemptContexts(held)).map((row) => [row.delivery_id, row]),
    );
    const items = new Map<string, DigestItem[]>();
    const removed: string[] = [];
    for (const row of held) {
      const context = contexts.get(row.deliveryId);
      if (!context) continue;
      const config = context.notifications.find((entry) => entry.type === row.channel);
      if (!config) {
        removed.push(row.deliveryId);
        continue;
      }
      const key = periodKey({ userId: row.user_id, periodEnd: row.period_end });
      items.set(key, [
        ...(items.get(key) ?? []),
        {
          recordId: row.deliveryId,
          destination: this.channels.digestDestination(config, context.task_id),
          config,
          occurredAt: new Date(context.completed_at ?? context.created_at),
        },
      ]);
    }
    const digests: DigestWrite[] = [];
    const attachments: Array<{ deliveryId: string; digestId: string }> = [];
    for (const period of periods) {
      for (const group of groupDigest(items.get(periodKey(period)) ?? [])) {
        const id = digestIdFor(period.userId, group.destination, period.periodEnd);
        digests.push({ id, channel: group.config.type, ...period });
        attachments.push(
          ...group.items.map((item) => ({ deliveryId: item.recordId, digestId: id })),
        );
      }
    }
    return this.transactions.run(async (manager) => {
      await this.deliveries.holdTasks(
        manager,
        [...contexts.values()].map((context) => context.task_id),
      );
      await this.repository.gather(manager, this.worker.id, digests, attachments);
      await this.repository.skipHeld(manager, removed, CHANNEL_REMOVED);
      const { claimed, busy } = await this.repository.claimFirstAttempts(
        manager,
        this.worker.id,
        periods,
      );
      const busyKeys = new Set(busy.map(periodKey));
      const busyJobs = periods.filter((period) => busyKeys.has(periodKey(period)));
      await this.queue.fail(
        DIGEST_QUEUE,
        busyJobs.map((period) => period.jobId),
        'a digest of this period is under way on another worker',
        manager,
      );
      const claimedByPeriod = new Map<string, ClaimedDigestRow[]>();
      for (const row of claimed) {
        const key = periodKey({ userId: row.user_id, periodEnd: row.period_end });
        claimedByPeriod.set(key, [...(claimedByPeriod.get(key) ?? []), row]);
      }
      await this.queue.complete(
        manager,
        DIGEST_QUEUE,
        periods
          .filter((period) => !claimedByPeriod.has(periodKey(period)))
          .filter((period) => !busyKeys.has(periodKey(period)))
          .map((period) => period.jobId),
      );
      return periods.flatMap((period) => {
        const claimedDigests = claimedByPeriod.get(periodKey(period));
        return claimedDigests ? [{ jobId: period.jobId, digests: claimedDigests }] : [];
      });
    });
  }

  /**
   * Claims later attempts of digests. A job whose digest is final or past its attempt completes;
   * one whose attempt is under way on another live worker goes back to the queue.
   */
  private async claimRetries(
    jobs: Array<{ id: string; data: DigestAttemptJobData }>,
  ): Promise<ClaimedDigestJob[]> {
    if (jobs.length === 0) return [];
    const { claimed, busy } = await this.repository.claimAttempts(
      this.worker.id,
      jobs.map((job) => job.data),
    );
    const claimedJobs = jobs.flatMap((job) => {
      const row = claimed.find(
        (digest) => digest.id === job.data.digestId && digest.attempt === job.data.attempt,
      );
      return row ? [{ jobId: job.id, digests: [row] }] : [];
    });
    const unclaimed = jobs.filter((job) => !claimedJobs.some((claim) => claim.jobId === job.id));
    const waiting = unclaimed.filter((job) => busy.has(job.data.digestId));
    await this.queue.fail(
      DIGEST_QUEUE,
      waiting.map((job) => job.id),
      'this digest attempt is under way on another worker',
    );
    await this.transactions.run((manager) =>
      this.queue.complete(
        manager,
        DIGEST_QUEUE,
        unclaimed.filter((job) => !busy.has(job.data.digestId)).map((job) => job.id),
      ),
    );
    return claimedJobs;
  }

  /** Each digest's events, oldest first, as the read of their executions and tasks finds them. */
  private async loadEvents(digestIds: string[]): Promise<Map<string, DigestEvent[]>> {
    const rows = await this.repository.loadDigestEvents(digestIds);
    const contexts = new Map(
      (await this.deliveries.loadAttemptContexts(rows)).map((row) => [row.delivery_id, row]),
    );
    const events = new Map<string, DigestEvent[]>();
    for (const row of rows) {
      const context = contexts.get(row.deliveryId);
      if (!context) continue;
      const event = { context, content: contentOf(row, context) };
      events.set(row.digest_id, [...(events.get(row.digest_id) ?? []), event]);
    }
    for (const list of events.values()) {
      list.sort((a, b) => a.content.occurredAt.getTime() - b.content.occurredAt.getTime());
    }
    return events;
  }
}

function periodKey(period: DigestPeriodKey): string {
  return `${period.userId}/${period.periodEnd.getTime()}`;
}
