/** The narrowest time window a value chart spans: two hours, in seconds. */
export const MIN_WINDOW_SECONDS = 2 * 60 * 60;

/**
 * The times a value chart's axis spans, in seconds since the epoch: from its first point to its
 * last, widened around their middle to at least two hours. One point (or points all at one
 * moment) would otherwise leave uPlot to pick a window of its own, years wide.
 */
export function timeWindow(first: number, last: number): [number, number] {
  if (last - first >= MIN_WINDOW_SECONDS) return [first, last];
  const middle = (first + last) / 2;
  return [middle - MIN_WINDOW_SECONDS / 2, middle + MIN_WINDOW_SECONDS / 2];
}
