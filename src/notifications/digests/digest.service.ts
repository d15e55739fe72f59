import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { DIGEST_QUEUE, JobQueueService, type QueueJob } from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { digestReleaseDeadline, type ClaimedDigestJob, type DigestEvent } from './claimed-digest';
import { DigestAttemptRunner } from './digest-attempt.runner';
import type { DigestJobData } from './digest-job';
import { DigestOutcomeRecorder } from './digest-outcome.recorder';
import { DIGEST_QUEUE_DECLARATION } from './digest.queue';
import { DigestGatherer, type GatheredDigests } from './digest.gatherer';

/**
 * Sends digests (docs/attention.md, "Digests"), shaped like deliveries. Per batch of jobs:
 *  1. gather: a period's job gathers its user's held digest deliveries into one digest per
 *     destination, a retry's job its attempt, each claimed (committed) before anything is sent
 *     (`DigestGatherer`);
 *  2. send: each digest as one message through its channel, all at once (`DigestAttemptRunner`);
 *  3. record: each job's outcomes, in groups (`DigestOutcomeRecorder`).
 * A claim whose worker died is taken over and the digest sent again with the same `webhook-id`
 * or `Message-ID`.
 */
@Injectable()
export class DigestService {
  constructor(
    private readonly queue: JobQueueService,
    private readonly gatherer: DigestGatherer,
    private readonly runner: DigestAttemptRunner,
    private readonly recorder: DigestOutcomeRecorder,
    @InjectPinoLogger(DigestService.name) private readonly logger: PinoLogger,
  ) {}

  /** Runs a batch of digest jobs to the end; `onSettled` is called once per job when it is done. */
  @WorksQueue(DIGEST_QUEUE_DECLARATION)
  async sendBatch(
    jobs: Array<QueueJob<DigestJobData>>,
    onSettled: () => void = () => undefined,
  ): Promise<void> {
    let gathered: GatheredDigests;
    try {
      gathered = await this.gatherer.gather(jobs);
    } catch (error) {
      this.logger.warn({ jobs: jobs.length, err: error }, 'Planning digests failed');
      await this.queue.failOnceReachable(
        DIGEST_QUEUE,
        jobs.map((job) => job.id),
        'planning failed',
        digestReleaseDeadline(),
      );
      jobs.forEach(() => onSettled());
      return;
    }
    const { claimed, events } = gathered;
    for (let index = claimed.length; index < jobs.length; index++) onSettled();
    await Promise.all(claimed.map((job) => this.sendJob(job, events).finally(() => onSettled())));
  }

  private async sendJob(job: ClaimedDigestJob, events: Map<string, DigestEvent[]>): Promise<void> {
    const attempts = await Promise.all(
      job.digests.map((digest) => this.runner.runAttempt(digest, events.get(digest.id) ?? [])),
    );
    try {
      // An outage that began while the digests were out: the outcomes are recorded once the
      // database answers again (nothing is sent twice), within the job's expiry.
      await retryWhileDatabaseUnavailable(
        () => this.recorder.recordJob({ jobId: job.jobId, attempts }),
        { until: digestReleaseDeadline() },
      );
    } catch (error) {
      this.logger.error({ err: error }, 'Recording digests failed');
      await this.queue.failOnceReachable(
        DIGEST_QUEUE,
        job.jobId,
        'recording failed',
        digestReleaseDeadline(),
      );
    }
  }
}
