import { Injectable } from '@nestjs/common';
import { releaseCooldown, type WaitingAlert } from '../../attention/decisions/cooldown-decision';
import {
  decideDeliveryGate,
  decideQuietHoursGate,
  type DeliveryGate,
} from '../../attention/decisions/delivery-gate';
import { DEFAULT_PREFERENCES } from '../../attention/preferences';
import { Clock } from '../../common/clock/clock';
import { TransactionRunner } from '../../database/transaction-runner';
import { DELIVERY_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { sendRecordOf, type ClaimedAttempt } from '../delivery/claimed-attempt';
import {
  DigestCapture,
  goesToDigest,
  type DigestCandidate,
} from '../digests/digest-capture.service';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { deliveriesWaitingTurn } from '../../attention/decisions/release-order';
import { derivedJobId, type DeliveryJob } from '../delivery/delivery-job';
import {
  NotificationDeliveryRepository,
  type AttemptContextRow,
  type SendRecordWrite,
} from '../delivery/notification-delivery.repository';
import type { HoldReason } from '../delivery/notification-delivery.entity';
import {
  DeliveryHoldRepository,
  type CooldownWindow,
  type HeldDelivery,
  type HeldOrSkipped,
  type SkippedDelivery,
} from './delivery-hold.repository';
import { ReminderRepository } from './reminder.repository';
import { nextReminder, reminderDue } from './reminders';

/** An attempt about to go out, with what its job found. */
export interface GatedAttempt {
  claim: ClaimedAttempt;
  context: AttemptContextRow;
}

/**
 * How long a released delivery waits before it looks again whether its turn came (an earlier
 * event to its destination still held or being sent: docs/attention.md, "Held deliveries keep
 * their order").
 */
export const RELEASE_TURN_MS = 1000;

export const FOLDED_AWAY = 'Folded into a later alert of the cooldown';
export const MADE_STALE = 'Dropped: a later check found the condition no longer met';

/** What the gate decided to write for a batch, before it is written in one transaction. */
interface GateWrites {
  holds: HeldDelivery[];
  skips: Array<{ row: SkippedDelivery; send: SendRecordWrite }>;
  /** Jobs done without an attempt: dropped reminders, held and skipped deliveries. */
  complete: string[];
  releases: DeliveryJob[];
  digests: DigestCandidate[];
}

/**
 * Decides, for each attempt about to go out, what attention makes of it (docs/attention.md):
 * a paused config skips it, a reminder no longer due is dropped, an alert waits for its task's
 * cooldown (and is folded at its end) or for the end of the owner's quiet hours. Waiting is a
 * `held` row and a queue job due at the end: nothing waits in memory, and a restart loses
 * nothing. Returns the attempts that go now.
 */
@Injectable()
export class AttentionGate {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly holds: DeliveryHoldRepository,
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly queue: JobQueueService,
    private readonly clock: Clock,
    private readonly digests: DigestCapture,
    private readonly reminders: ReminderRepository,
    private readonly channels: NotificationChannelRegistry,
  ) {}

  async admit(attempts: GatedAttempt[]): Promise<ClaimedAttempt[]> {
    const now = this.clock.now();
    const writes: GateWrites = { holds: [], skips: [], complete: [], releases: [], digests: [] };
    const going: GatedAttempt[] = [];
    const gates = await this.gatesOf(attempts, now);
    attempts.forEach((attempt, index) => {
      const gate = gates[index];
      if (gate.kind === 'send') going.push(attempt);
      else this.plan(attempt, gate, writes, now);
    });
    const waiting = await this.waitingTurn(going);
    for (const { attempt, hold } of waiting) {
      this.hold(attempt, writes, now, {
        ...hold,
        runAt: new Date(now.getTime() + RELEASE_TURN_MS),
      });
    }
    const toSend = going.filter((attempt) => !waiting.some((entry) => entry.attempt === attempt));
    if (writes.complete.length > 0) {
      await this.transactions.run(async (manager) => {
        // Lock order (docs/architecture.md, "One lock order"): tasks, then deliveries and jobs.
        await this.deliveries.holdTasks(manager, [
          ...writes.holds.map((row) => row.taskId),
          ...writes.skips.map(({ row }) => row.taskId),
          ...writes.digests.map(({ claim }) => claim.taskId),
        ]);
        await this.holds.hold(manager, writes.holds);
        await this.holds.skip(
          manager,
          writes.skips.map(({ row }) => row),
          writes.skips.map(({ send }) => send),
        );
        await this.digests.capture(manager, writes.digests, now);
        await this.queue.enqueueDeliveries(manager, writes.releases);
        await this.queue.complete(manager, DELIVERY_QUEUE, writes.complete);
      });
    }
    await this.advanceReminders(toSend.filter(({ claim }) => claim.event === 'reminder'));
    return toSend.map(({ claim }) => claim);
  }

  /**
   * The gate of each attempt, in their order. A cooldown's release folds its alerts first: the
   * windows of every cooldown the batch releases are read in one statement.
   */
  private async gatesOf(attempts: GatedAttempt[], now: Date): Promise<DeliveryGate[]> {
    const gates = attempts.map(({ claim, context }) =>
      decideDeliveryGate({
        event: claim.event,
        pauseReason: claim.config?.pause_reason ?? null,
        reminderDue: claim.event === 'reminder' ? reminderDue(claim, context) : null,
        digest: claim.config !== null && goesToDigest(claim.config),
        cooldownUntil: cooldownOf(claim),
        preferences: context.user_preferences ?? DEFAULT_PREFERENCES,
        now,
      }),
    );
    // Folded already (held again for quiet hours since): the fold stands.
    const folding = attempts.flatMap((attempt, index) => {
      const until = cooldownOf(attempt.claim);
      return gates[index].kind === 'release' && until !== null && attempt.context.folded === null
        ? [{ index, claim: attempt.claim, until }]
        : [];
    });
    const windows = await this.holds.cooldownWindows(
      folding.map(({ claim, until }) => ({
        taskId: claim.taskId,
        channel: claim.channel,
        cooldownUntil: until,
      })),
    );
    folding.forEach(({ index, claim }, position) => {
      const outcome = fold(claim, windows[position]);
      if (outcome.skip !== null) gates[index] = { kind: 'skip', reason: outcome.skip };
      else claim.content = { ...claim.content, folded: outcome.folded };
    });
    return gates.map((gate, index) => {
      if (gate.kind !== 'release' || cooldownOf(attempts[index].claim) === null) return gate;
      const { claim, context } = attempts[index];
      return decideQuietHoursGate(
        claim.event,
        now,
        context.user_preferences ?? DEFAULT_PREFERENCES,
      );
    });
  }

  /**
   * The released deliveries about to go that must wait for their turn: an earlier event to the
   * same destination, released with them or before, is still held or being sent (by this worker
   * or another). Each such delivery stays `held` as it is and looks again in RELEASE_TURN_MS;
   * deliveries that were never held go at once.
   */
  private async waitingTurn(
    going: GatedAttempt[],
  ): Promise<Array<{ attempt: GatedAttempt; hold: ReleasedHold }>> {
    const released = going.flatMap((attempt) => {
      const hold = releasedHold(attempt.context);
      const config = attempt.claim.config;
      return hold && config ? [{ attempt, hold, config }] : [];
    });
    if (released.length === 0) return [];
    const latest = Math.max(...released.map(({ hold }) => new Date(hold.heldUntil).getTime()));
    const open = await this.holds.openReleases(
      [...new Set(released.map(({ attempt }) => attempt.context.user_id))],
      new Date(latest),
    );
    const behind = deliveriesWaitingTurn(
      released.map(({ attempt: { claim, context }, hold, config }) => ({
        id: claim.deliveryId,
        destination: this.channels.destination(config),
        occurredAt: new Date(context.completed_at ?? context.created_at),
        heldUntil: new Date(hold.heldUntil),
      })),
      open.flatMap((row) => {
        const config = row.notifications.find((entry) => entry.type === row.channel);
        return config
          ? [
              {
                id: row.id,
                destination: this.channels.destination(config),
                occurredAt: new Date(row.occurred_at),
                heldUntil: row.held_until && new Date(row.held_until),
              },
            ]
          : [];
      }),
    );
    return released.filter(({ attempt }) => behind.has(attempt.claim.deliveryId));
  }

  private plan(attempt: GatedAttempt, gate: DeliveryGate, writes: GateWrites, now: Date): void {
    const { claim, context } = attempt;
    if (gate.kind === 'send' || gate.kind === 'release') return;
    if (gate.kind === 'hold') {
      this.hold(attempt, writes, now, {
        reason: gate.reason,
        heldUntil: gate.until,
        runAt: gate.until,
      });
      return;
    }
    writes.complete.push(claim.jobId);
    if (gate.kind === 'drop') return;
    if (gate.kind === 'digest') {
      writes.digests.push({ claim, preferences: context.user_preferences });
      return;
    }
    if (gate.kind === 'skip') {
      writes.skips.push({
        row: { ...deliveryOf(claim), reason: gate.reason },
        send: sendRecordOf(claim, 'skipped', gate.reason, now),
      });
      return;
    }
  }

  /** Keeps a delivery `held` until `heldUntil`; its job runs it again at `runAt`. */
  private hold(
    { claim, context }: GatedAttempt,
    writes: GateWrites,
    now: Date,
    wait: { reason: HoldReason; heldUntil: Date; runAt: Date },
  ): void {
    const release = releaseJob(claim, wait.runAt);
    writes.complete.push(claim.jobId);
    writes.releases.push(release);
    writes.holds.push({
      ...deliveryOf(claim),
      jobId: release.id,
      heldUntil: wait.heldUntil,
      reason: wait.reason,
      cooldownUntil: cooldownOf(claim),
      folded: claim.content.folded ?? context.folded,
      send: sendRecordOf(claim, 'held', null, now),
    });
  }

  /**
   * Reminders about to go out: the task counts them, and the next one of each is queued (in its
   * own transaction, the task locked first).
   */
  private async advanceReminders(reminders: GatedAttempt[]): Promise<void> {
    if (reminders.length === 0) return;
    await this.transactions.run(async (manager) => {
      await this.reminders.lockTasks(
        manager,
        reminders.map(({ claim }) => claim.taskId),
      );
      for (const { claim } of reminders) {
        await this.reminders.countReminder(
          manager,
          claim.taskId,
          claim.executionId,
          claim.repeat ?? 1,
        );
      }
      await this.queue.enqueueDeliveries(
        manager,
        reminders.flatMap(({ claim, context }) => {
          const next = nextReminder(claim, context);
          return next ? [next] : [];
        }),
      );
    });
  }
}

/** The end of a cooldown this attempt waited for, if it waited for one. */
function cooldownOf(claim: ClaimedAttempt): Date | null {
  return claim.cooldownUntil ? new Date(claim.cooldownUntil) : null;
}

/**
 * The end of a cooldown: of the alerts that waited for it through this channel, those made
 * stale are dropped and the latest of each event goes, folding the others. Every waiting
 * delivery reaches the same decision from the same rows.
 */
function fold(
  claim: ClaimedAttempt,
  window: CooldownWindow,
): { skip: string | null; folded: number } {
  const waiting: WaitingAlert[] = window.waiting.map((row) => ({
    recordId: row.id,
    event: row.event,
    occurredAt: new Date(row.occurred_at),
  }));
  const release = releaseCooldown(waiting, window.withdrawnAt);
  const mine = release.send.find((alert) => alert.recordId === claim.deliveryId);
  if (mine) return { skip: null, folded: mine.folded };
  const self = waiting.find((alert) => alert.recordId === claim.deliveryId);
  const stale =
    self !== undefined && window.withdrawnAt !== null && self.occurredAt < window.withdrawnAt;
  return { skip: stale ? MADE_STALE : FOLDED_AWAY, folded: 0 };
}

/** Why and until when a delivery released now was held: quiet hours or a cooldown. */
interface ReleasedHold {
  reason: 'quiet_hours' | 'cooldown';
  heldUntil: Date;
}

/** The hold a delivery whose job runs now was released from, or null when it was not held. */
function releasedHold(context: AttemptContextRow): ReleasedHold | null {
  const reason = context.hold_reason;
  if (context.delivery_state !== 'held' || context.held_until === null) return null;
  return reason === 'quiet_hours' || reason === 'cooldown'
    ? { reason, heldUntil: context.held_until }
    : null;
}

/** The job that runs a held delivery again at `until`, as its first attempt. */
function releaseJob(claim: ClaimedAttempt, until: Date): DeliveryJob {
  return {
    id: derivedJobId('delivery-release', claim.deliveryId, until.toISOString()),
    data: {
      executionId: claim.executionId,
      taskId: claim.taskId,
      channel: claim.channel,
      event: claim.event,
      deliveryId: claim.deliveryId,
      attempt: 1,
      webhookId: claim.webhookId,
      ...(claim.cooldownUntil ? { cooldownUntil: claim.cooldownUntil } : {}),
      ...(claim.repeat ? { repeat: claim.repeat } : {}),
    },
    startAfter: until,
  };
}

/** The row fields of the delivery an attempt is part of. */
function deliveryOf(claim: ClaimedAttempt): HeldOrSkipped {
  return {
    id: claim.deliveryId,
    executionId: claim.executionId,
    taskId: claim.taskId,
    channel: claim.channel,
    event: claim.event,
    jobId: claim.jobId,
  };
}
