import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs SQL and returns its rows. TypeORM's `query()` answers an UPDATE/DELETE ... RETURNING with
 * `[rows, rowCount]` but a SELECT/INSERT with `rows`; this evens that out.
 */
export async function queryRows<T>(
  runner: EntityManager | DataSource,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await runner.query(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
