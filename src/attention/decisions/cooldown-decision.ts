import { isCooldownEvent, type AttentionEvent, type CooldownEvent } from './attention-events';

export interface CooldownInput {
  event: AttentionEvent;
  /** The policy's cooldown (null: the task has none). */
  cooldownMs: number | null;
  /**
   * When the task's last `condition_met` or `values_changed` alert went out; a time still to come
   * is the end of a cooldown that alerts wait for already.
   */
  alertSentAt: Date | null;
  now: Date;
}

/** Whether the alert waits, and the task's `alertSentAt` after it. */
export type CooldownDecision =
  { wait: false; alertSentAt: Date | null } | { wait: true; until: Date; alertSentAt: Date };

/**
 * Whether a new alert of a task goes now or waits for the end of the task's cooldown
 * (docs/attention.md, "Cooldown"): only `condition_met` and `values_changed` wait; they wait while
 * the cooldown after the last one that went out runs, or while others wait already (so the end
 * of the cooldown folds them all, and goes out as the task's next alert).
 */
export function decideCooldown(input: CooldownInput): CooldownDecision {
  const { event, cooldownMs, alertSentAt, now } = input;
  if (!isCooldownEvent(event)) return { wait: false, alertSentAt };
  if (cooldownMs === null || alertSentAt === null) return { wait: false, alertSentAt: now };
  if (alertSentAt > now) return { wait: true, until: alertSentAt, alertSentAt };
  const until = new Date(alertSentAt.getTime() + cooldownMs);
  return until > now
    ? { wait: true, until, alertSentAt: until }
    : { wait: false, alertSentAt: now };
}

export interface WaitingAlert {
  /** The send record that waits (`held`). */
  recordId: string;
  event: CooldownEvent;
  /** When the execution that raised it ran. */
  occurredAt: Date;
}

export interface FoldedAlert {
  recordId: string;
  event: CooldownEvent;
  /** The waiting alerts this one replaces, itself included (`data.folded`). */
  folded: number;
}

export interface CooldownRelease {
  /** At most one per event type: the latest waiting alert of that type. */
  send: FoldedAlert[];
  /** Folded away or made stale: their records end `skipped`. */
  skip: string[];
}

/**
 * At the end of a cooldown: alerts raised before `withdrawnAt` (the latest execution that
 * retracted the alert or found the condition no longer met) are stale and dropped; of the rest,
 * the latest of each event type goes, folding the others of its type.
 */
export function releaseCooldown(
  waiting: WaitingAlert[],
  withdrawnAt: Date | null,
): CooldownRelease {
  const stale = (alert: WaitingAlert) => withdrawnAt !== null && alert.occurredAt < withdrawnAt;
  const byEvent = new Map<CooldownEvent, WaitingAlert[]>();
  for (const alert of waiting.filter((candidate) => !stale(candidate))) {
    byEvent.set(alert.event, [...(byEvent.get(alert.event) ?? []), alert]);
  }
  const send = [...byEvent.entries()].map(([event, alerts]) => {
    const latest = alerts.reduce((last, alert) =>
      alert.occurredAt >= last.occurredAt ? alert : last,
    );
    return { recordId: latest.recordId, event, folded: alerts.length };
  });
  const sent = new Set(send.map((alert) => alert.recordId));
  return {
    send,
    skip: waiting.map((alert) => alert.recordId).filter((recordId) => !sent.has(recordId)),
  };
}
