import type { AttentionEvent } from './attention-events';

export interface ChannelPauseInput {
  /** The event of the delivery that just ended (after its retries). */
  event: AttentionEvent;
  succeeded: boolean;
  /** What went wrong, when it failed (`HTTP 404`). */
  error: string | null;
  /** Deliveries in a row to this config that ended failed, before this one. */
  consecutiveFailures: number;
  alreadyPaused: boolean;
  /** CHANNEL_PAUSE_AFTER_FAILURES */
  pauseAfter: number;
}

export interface ChannelPauseDecision {
  consecutiveFailures: number;
  /** Set when this delivery pauses the config (`pause_reason`); the owner is told once. */
  pause: { reason: string } | null;
}

/**
 * Channels that pause themselves (docs/attention.md): a success resets the count; the failure
 * that brings it to `pauseAfter` pauses the config. Test sends neither count nor reset.
 */
export function decideChannelPause(input: ChannelPauseInput): ChannelPauseDecision {
  if (input.event === 'test') {
    return { consecutiveFailures: input.consecutiveFailures, pause: null };
  }
  if (input.succeeded) return { consecutiveFailures: 0, pause: null };
  const failures = input.consecutiveFailures + 1;
  const pauses = !input.alreadyPaused && failures >= input.pauseAfter;
  return {
    consecutiveFailures: failures,
    pause: pauses
      ? { reason: `${failures} deliveries in a row failed: ${input.error ?? 'unknown error'}` }
      : null,
  };
}
