/**
 * `work`'s outcome, or `onTimeout`'s (what it returns, or what it throws) when `work` has not
 * settled within `ms`. The timer ends with the race; `work` itself is not cancelled.
 */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => T,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  }).then(onTimeout);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
