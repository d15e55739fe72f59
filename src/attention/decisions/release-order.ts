/** A delivery and its destination, its event's time and the end of its hold. */
export interface ReleaseEntry {
  id: string;
  /** `NotificationChannelRegistry.destination` of its config. */
  destination: string;
  occurredAt: Date;
  /** When its hold for quiet hours or a cooldown ends; null for one being sent. */
  heldUntil: Date | null;
}

/**
 * Which deliveries released from a hold must wait for their turn (docs/attention.md, "Held
 * deliveries keep their order"): those with an earlier event (by time, then id) to the same
 * destination among `open` that is being sent, or is held with a hold that ends no later than its
 * own (so it is released with it or before it). Each waits until none is, so a destination gets
 * them one at a time, in the order their events happened.
 */
export function deliveriesWaitingTurn(
  released: ReadonlyArray<ReleaseEntry & { heldUntil: Date }>,
  open: readonly ReleaseEntry[],
): Set<string> {
  const earlier = (a: ReleaseEntry, b: ReleaseEntry) =>
    a.occurredAt.getTime() < b.occurredAt.getTime() ||
    (a.occurredAt.getTime() === b.occurredAt.getTime() && a.id < b.id);
  return new Set(
    released
      .filter((delivery) =>
        open.some(
          (other) =>
            other.id !== delivery.id &&
            other.destination === delivery.destination &&
            earlier(other, delivery) &&
            (other.heldUntil === null || other.heldUntil <= delivery.heldUntil),
        ),
      )
      .map((delivery) => delivery.id),
  );
}
