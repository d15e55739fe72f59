import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { groupDigest, type DigestItem } from '../../attention/decisions/digest-grouping';
import { BatchCommitter } from '../../common/batching/batch-committer';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { TransactionRunner } from '../../database/transaction-runner';
import { MetricsService } from '../../metrics/metrics.service';
import { DIGEST_QUEUE, JobQueueService, type QueueJob } from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { channelOwner } from '../channels/notification-channel';
import type { SendStatus } from '../channels/notification-types';
import { contentOf, CANCELLED_INACTIVE_USER } from '../delivery/notification-delivery.service';
import { failedAttempt, type AttemptOutcome } from '../delivery/attempt-outcome';
import { CHANNEL_REMOVED } from '../delivery/delivery-attempt.runner';
import { webhookIdFor } from '../delivery/delivery-job';
import { decideRetry } from '../delivery/delivery-retry';
import {
  NotificationDeliveryRepository,
  type AttemptContextRow,
  type SendRecordWrite,
} from '../delivery/notification-delivery.repository';
import { notificationsConfig, type NotificationsConfig } from '../notifications.config';
import {
  digestAttemptJobId,
  digestIdFor,
  isDigestAttempt,
  type DigestAttemptJobData,
  type DigestJobData,
  type DigestPeriodJobData,
} from './digest-job';
import { DIGEST_JOB_EXPIRY_SECONDS, DIGEST_QUEUE_DECLARATION } from './digest.queue';
import {
  DigestRepository,
  type ClaimedDigestRow,
  type DigestOutcomeWrite,
  type DigestPeriodKey,
  type DigestWrite,
} from './digest.repository';
import type { DigestState } from './notification-digest.entity';

/** Outcomes are written in groups of at most this many jobs (one transaction each). */
const MAX_RECORD_BATCH = 128;
const PARALLEL_FLUSHES = 2;

/** A job with the digests it sends: a period's (one per destination) or one retry. */
interface ClaimedJob {
  jobId: string;
  digests: ClaimedDigestRow[];
}

/** One event of a digest: its execution and task, and what it says. */
interface DigestEvent {
  context: AttemptContextRow;
  content: ReturnType<typeof contentOf>;
}

/** What one attempt of one digest came to, ready to be written. */
interface DigestAttemptRecord {
  outcome: DigestOutcomeWrite;
  /** Null when nothing was sent (no event left, the channel removed, the owner inactive). */
  send: SendRecordWrite | null;
  next: { id: string; data: DigestAttemptJobData; startAfter: Date } | null;
}

interface JobRecord {
  jobId: string;
  attempts: DigestAttemptRecord[];
}

const SEND_STATUS: Record<DigestState, SendStatus> = {
  sending: 'held',
  retry_scheduled: 'held',
  delivered: 'success',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'skipped',
};

/**
 * Sends digests (docs/attention.md, "Digests"). A period's job gathers its user's held digest
 * deliveries, groups them per destination (`groupDigest`) and creates one digest row each,
 * claimed (committed) before anything is sent; then each digest goes as one message through its
 * channel and its outcome is recorded with a `digest` send record, the held records of its
 * events updated, and its next attempt queued when it failed and the retry schedule
 * (WEBHOOK_RETRY_SCHEDULE) goes on. A digest's id is derived from (user, destination, period
 * end), so another instance or a run after a crash finds the same row: a claim whose worker
 * died is taken over and the digest sent again with the same `webhook-id` or `Message-ID`.
 */
@Injectable()
export class DigestService {
  private readonly committer: BatchCommitter<JobRecord>;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly repository: DigestRepository,
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly channels: NotificationChannelRegistry,
    private readonly worker: WorkerIdentity,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    @InjectConfig(notificationsConfig) private readonly config: NotificationsConfig,
    @InjectPinoLogger(DigestService.name) private readonly logger: PinoLogger,
  ) {
    this.committer = new BatchCommitter(
      transactions,
      MAX_RECORD_BATCH,
      (manager, records) => this.writeRecords(manager, records),
      PARALLEL_FLUSHES,
    );
  }

  /** Runs a batch of digest jobs to the end; `onSettled` is called once per job when it is done. */
  @WorksQueue(DIGEST_QUEUE_DECLARATION)
  async sendBatch(
    jobs: Array<QueueJob<DigestJobData>>,
    onSettled: () => void = () => undefined,
  ): Promise<void> {
    let claimed: ClaimedJob[];
    let events: Map<string, DigestEvent[]>;
    try {
      claimed = [
        ...(await this.gatherPeriods(
          jobs.flatMap((job) =>
            isDigestAttempt(job.data) ? [] : [{ id: job.id, data: job.data }],
          ),
        )),
        ...(await this.claimRetries(
          jobs.flatMap((job) =>
            isDigestAttempt(job.data) ? [{ id: job.id, data: job.data }] : [],
          ),
        )),
      ];
      events = await this.loadEvents(claimed.flatMap((job) => job.digests.map((row) => row.id)));
    } catch (error) {
      this.logger.warn({ jobs: jobs.length, err: error }, 'Planning digests failed');
      await this.queue.failOnceReachable(
        DIGEST_QUEUE,
        jobs.map((job) => job.id),
        'planning failed',
        releaseDeadline(),
      );
      jobs.forEach(() => onSettled());
      return;
    }
    for (let index = claimed.length; index < jobs.length; index++) onSettled();
    await Promise.all(claimed.map((job) => this.sendJob(job, events).finally(() => onSettled())));
  }

  /**
   * Gathers the periods' held deliveries into digests and claims their first attempts, in one
   * transaction (tasks first: docs/architecture.md, "One lock order"). A period with nothing to
   * send completes; one whose digest is under way on another live worker is sent back to the
   * queue, to be looked at again once that worker is done or dead.
   */
  private async gatherPeriods(
    jobs: Array<{ id: string; data: DigestPeriodJobData }>,
  ): Promise<ClaimedJob[]> {
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
          taskId: context.task_id,
          config,
          occurredAt: new Date(context.completed_at ?? context.created_at),
          data: null,
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
  ): Promise<ClaimedJob[]> {
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

  private async sendJob(job: ClaimedJob, events: Map<string, DigestEvent[]>): Promise<void> {
    const attempts = await Promise.all(
      job.digests.map((digest) => this.sendDigest(digest, events.get(digest.id) ?? [])),
    );
    try {
      // An outage that began while the digests were out: the outcomes are recorded once the
      // database answers again (nothing is sent twice), within the job's expiry.
      await retryWhileDatabaseUnavailable(
        () => this.committer.submit({ jobId: job.jobId, attempts }),
        { until: releaseDeadline() },
      );
    } catch (error) {
      this.logger.error({ err: error }, 'Recording digests failed');
      await this.queue.failOnceReachable(
        DIGEST_QUEUE,
        job.jobId,
        'recording failed',
        releaseDeadline(),
      );
    }
  }

  /**
   * Sends one claimed digest through the channel of its latest event's config (the newest
   * credentials), unless nothing is left to send: its events were deleted, the channel was
   * removed from that task, or the owner is no longer active.
   */
  private async sendDigest(
    digest: ClaimedDigestRow,
    events: DigestEvent[],
  ): Promise<DigestAttemptRecord> {
    const latest = events.at(-1)?.context;
    const config = latest?.notifications.find((entry) => entry.type === digest.channel);
    if (!latest || !latest.user_active || !config) {
      const [state, reason]: [DigestState, string] = !latest
        ? ['skipped', 'Nothing left to send: the events were deleted']
        : !latest.user_active
          ? ['cancelled', CANCELLED_INACTIVE_USER]
          : ['skipped', CHANNEL_REMOVED];
      return { outcome: outcomeWrite(digest, state, reason), send: null, next: null };
    }
    const channel = this.channels.get(config.type);
    const attemptedAt = this.clock.now();
    const send = () =>
      channel.deliverDigest(config, {
        owner: channelOwner({
          id: latest.user_id,
          email: latest.user_email,
          emailVerified: latest.user_email_verified,
        }),
        period: { period_start: digest.period_start, period_end: digest.period_end },
        events: events.map((event) => event.content),
        digestId: digest.id,
        webhookId: webhookIdFor(digest.id),
        attemptedAt,
      });
    let outcome: AttemptOutcome;
    try {
      outcome = await (channel.claimedSlots ? channel.claimedSlots.run(send) : send());
    } catch (error) {
      this.logger.error({ err: error }, 'Digest attempt failed unexpectedly');
      outcome = failedAttempt('Unexpected error', true);
    }
    this.metrics.recordDelivery(digest.channel, outcome.status);
    const decision = decideRetry(outcome, digest.attempt, this.config.webhookRetryScheduleMs);
    return {
      outcome: outcomeWrite(digest, decision.state, outcome.errorMessage),
      send: {
        deliveryId: digest.id,
        userId: digest.user_id,
        taskId: latest.task_id,
        executionId: null,
        recipient: channel.maskedRecipient(config),
        notificationType: config.type,
        event: 'digest',
        status: outcome.status,
        errorMessage: outcome.errorMessage,
        attempt: digest.attempt,
        attemptedAt,
      },
      next:
        decision.state === 'retry_scheduled'
          ? {
              id: digestAttemptJobId(digest.id, digest.attempt + 1),
              data: { digestId: digest.id, attempt: digest.attempt + 1 },
              startAfter: new Date(this.clock.now().getTime() + decision.delayMs),
            }
          : null,
    };
  }

  /**
   * Records outcomes with their send records and next attempts, and completes the jobs, in one
   * transaction: tasks first, then digests, deliveries, send records and jobs. An attempt this
   * worker no longer holds the claim of (recorded by another run) writes nothing.
   */
  private async writeRecords(manager: EntityManager, jobs: JobRecord[]): Promise<void> {
    const attempts = jobs.flatMap((job) => job.attempts);
    const tasks = await this.deliveries.holdTasks(
      manager,
      attempts.flatMap((attempt) => (attempt.send ? [attempt.send.taskId] : [])),
    );
    const recorded = await this.repository.recordOutcomes(
      manager,
      this.worker.id,
      attempts.map((attempt) => attempt.outcome),
    );
    const mine = attempts.filter((attempt) => recorded.has(attempt.outcome.id));
    await this.deliveries.insertSends(
      manager,
      mine.flatMap((attempt) =>
        attempt.send && tasks.has(attempt.send.taskId) ? [attempt.send] : [],
      ),
    );
    await this.queue.enqueueDigests(
      manager,
      mine.flatMap((attempt) => (attempt.next ? [attempt.next] : [])),
    );
    await this.queue.complete(
      manager,
      DIGEST_QUEUE,
      jobs.map((job) => job.jobId),
    );
  }
}

function outcomeWrite(
  digest: ClaimedDigestRow,
  state: DigestState,
  lastError: string | null,
): DigestOutcomeWrite {
  return {
    id: digest.id,
    attempt: digest.attempt,
    state,
    lastError,
    sendStatus: SEND_STATUS[state],
  };
}

function periodKey(period: DigestPeriodKey): string {
  return `${period.userId}/${period.periodEnd.getTime()}`;
}

/**
 * How long a worker keeps trying to record or release a job while the database is out of reach:
 * up to the job's expiry, after which the queue brings the job back by itself.
 */
function releaseDeadline(): number {
  return Date.now() + DIGEST_JOB_EXPIRY_SECONDS * 1000;
}
