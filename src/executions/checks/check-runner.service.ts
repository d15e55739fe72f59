import { Injectable } from '@nestjs/common';
import { LogContext } from '../../common/logging/log-context';
import { MetricsService } from '../../metrics/metrics.service';
import { PageItemKeyRepository } from '../../pages/items/page-item-key.repository';
import { PageSnapshotRepository } from '../../pages/snapshots/page-snapshot.repository';
import type { CheckJobData, QueueJob } from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { CheckOutcomeRecorder } from './check-outcome.recorder';
import { CheckCaller } from './check.caller';
import { CHECK_QUEUE_DECLARATION } from './check.queue';
import { CheckClaimer } from './check.claimer';
import { checkLogFields } from './claimed-check';

/**
 * Runs check jobs (docs/architecture.md): claim (execution `running`, `CheckClaimer`), the pages
 * of page tasks read and one provider call at most, outside any transaction (`CheckCaller`), then one transaction that records the
 * result, moves the task on, schedules the next check, queues the deliveries and completes the
 * job (`CheckOutcomeRecorder`). Claims and results are written in batches, so the database work
 * per check stays small under load.
 */
@Injectable()
export class CheckRunnerService {
  constructor(
    private readonly claimer: CheckClaimer,
    private readonly caller: CheckCaller,
    private readonly recorder: CheckOutcomeRecorder,
    private readonly metrics: MetricsService,
    private readonly logContext: LogContext,
    private readonly snapshots: PageSnapshotRepository,
    private readonly itemKeys: PageItemKeyRepository,
  ) {}

  /**
   * Runs a batch of jobs fetched together; resolves when every one is recorded. `release` is
   * called once per job as soon as that job is done (a worker frees a slot as each check ends),
   * so one slow check holds only its own slot, not its batch's. Each check runs in its log
   * context: every line logged for it carries its task and execution ids.
   */
  @WorksQueue(CHECK_QUEUE_DECLARATION)
  async runBatch(
    jobs: Array<QueueJob<CheckJobData>>,
    release: () => void = () => undefined,
  ): Promise<void> {
    const claimed = await this.claimer.claimAll(jobs);
    // Jobs with nothing to run (completed, or handed back to the queue) are done already.
    for (let index = claimed.length; index < jobs.length; index++) release();
    // The last good fetch of every page the batch reads, in one statement, before the network;
    // and of pages with items, the keys they have shown.
    const snapshots = await this.itemKeys.withSeenKeys(
      await this.snapshots.loadForChecks(
        claimed.flatMap((check) =>
          check.pages === null
            ? []
            : [{ taskId: check.taskId, urls: check.pages.map((page) => page.url) }],
        ),
      ),
      claimed.flatMap((check) => [
        {
          taskId: check.taskId,
          urls: (check.pages ?? []).flatMap((page) => (page.items === undefined ? [] : [page.url])),
        },
      ]),
    );
    const unreserved = await this.caller.reserveCalls(claimed);
    await Promise.all(
      claimed.map((check) =>
        this.logContext.run(checkLogFields(check), async () => {
          try {
            const startedAt = performance.now();
            await this.recorder.record(
              this.caller.call(check, unreserved, snapshots.get(check.taskId)),
            );
            if (check.ended) {
              this.metrics.recordCheck({
                ...check.ended,
                durationSeconds: (performance.now() - startedAt) / 1000,
              });
            }
          } finally {
            release();
          }
        }),
      ),
    );
  }
}
