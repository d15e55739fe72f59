/** `YYYY-MM`, months 01 to 12 (`?month=`). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export interface MonthRange {
  month: string;
  from: Date;
  to: Date;
}

/** The first instant of the UTC month after the one `at` falls in. */
export function startOfNextMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** The UTC month `month` names (already validated), or the month `now` falls in. */
export function monthRange(month: string | undefined, now: Date): MonthRange {
  const from =
    month === undefined
      ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
      : new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  return { month: from.toISOString().slice(0, 7), from, to: startOfNextMonth(from) };
}
