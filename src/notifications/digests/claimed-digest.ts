import type { SendStatus } from '../channels/notification-types';
import type { NotificationContent } from '../content/notification-content';
import type {
  AttemptContextRow,
  SendRecordWrite,
} from '../delivery/notification-delivery.repository';
import type { DigestAttemptJobData } from './digest-job';
import { DIGEST_JOB_EXPIRY_SECONDS } from './digest.queue';
import type { ClaimedDigestRow, DigestOutcomeWrite } from './digest.repository';
import type { DigestState } from './notification-digest.entity';

/** A job with the digests it sends: a period's (one per destination) or one retry. */
export interface ClaimedDigestJob {
  jobId: string;
  digests: ClaimedDigestRow[];
}

/** One event of a digest: its execution and task, and what it says. */
export interface DigestEvent {
  context: AttemptContextRow;
  content: NotificationContent;
}

/** What one attempt of one digest came to, ready to be written. */
export interface DigestAttemptRecord {
  outcome: DigestOutcomeWrite;
  /** Null when nothing was sent (no event left, the channel removed, the owner inactive). */
  send: SendRecordWrite | null;
  next: { id: string; data: DigestAttemptJobData; startAfter: Date } | null;
}

/** A job's attempts, recorded together with the job's completion. */
export interface DigestJobRecord {
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

/** The digest row an attempt leaves in `state`, and the status its events' records take. */
export function digestOutcomeWrite(
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

/**
 * How long a worker keeps trying to record or release a job while the database is out of reach:
 * up to the job's expiry, after which the queue brings the job back by itself.
 */
export function digestReleaseDeadline(): number {
  return Date.now() + DIGEST_JOB_EXPIRY_SECONDS * 1000;
}
