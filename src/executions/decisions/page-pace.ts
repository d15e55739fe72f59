/**
 * How often a task whose verdict needs no model is checked (docs/pages.md, "When a page task is
 * checked"): no agent answers `next_check_at` for it, so its pages set the pace.
 */
export interface PagePace {
  /** Time from a check's end to the next check. */
  intervalMs: number;
  /** Checks in a row in which no page changed since the interval last moved. */
  quietChecks: number;
}

export interface PagePaceBounds {
  /** `SCHEDULER_MIN_INTERVAL`: the interval never halves below it. */
  minIntervalMs: number;
  /**
   * `PAGE_CHECK_INTERVAL`: the interval after the first check, and the longest (unless
   * `SCHEDULER_MIN_INTERVAL` is longer: that one wins).
   */
  pageCheckIntervalMs: number;
}

/** A quiet streak this long doubles the interval. */
const QUIET_CHECKS_TO_SLOW_DOWN = 3;

/**
 * The pace after a check: `PAGE_CHECK_INTERVAL` after the task's first check without a model
 * (`previous` null); then halved (never below `SCHEDULER_MIN_INTERVAL`) after a check in which
 * some page `changed`, doubled (never above `PAGE_CHECK_INTERVAL`) after every third check in a
 * row in which none did, and otherwise as it was. Whole milliseconds.
 */
export function nextPagePace(
  previous: PagePace | null,
  changed: boolean,
  bounds: PagePaceBounds,
): PagePace {
  const { minIntervalMs } = bounds;
  const longest = Math.max(minIntervalMs, bounds.pageCheckIntervalMs);
  if (previous === null) return { intervalMs: longest, quietChecks: 0 };
  if (changed) {
    const halved = Math.floor(previous.intervalMs / 2);
    return { intervalMs: Math.max(minIntervalMs, halved), quietChecks: 0 };
  }
  const quietChecks = previous.quietChecks + 1;
  if (quietChecks < QUIET_CHECKS_TO_SLOW_DOWN) return { ...previous, quietChecks };
  return { intervalMs: Math.min(longest, previous.intervalMs * 2), quietChecks: 0 };
}
