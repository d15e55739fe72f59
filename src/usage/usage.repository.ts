import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import type { ProviderUsage } from '../search/search-provider';
import type { UsageKind } from './usage-event.entity';

export interface UsageRecord {
  userId: string;
  kind: UsageKind;
  executionId: string | null;
  usage: ProviderUsage;
}

export interface UsageTotals {
  executions: number;
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  cost_usd: number;
}

export interface UserUsageTotals extends UsageTotals {
  user_id: string;
  email: string | null;
}

type TotalsRow = Record<keyof UsageTotals, string | number>;

const TOTALS = `count(*) FILTER (WHERE ue.kind = 'check')::int AS executions,
  count(*)::int AS llm_calls,
  coalesce(sum(ue.input_tokens), 0)::bigint AS input_tokens,
  coalesce(sum(ue.output_tokens), 0)::bigint AS output_tokens,
  coalesce(sum(ue.search_calls), 0)::bigint AS search_calls,
  coalesce(sum(ue.cost_usd), 0) AS cost_usd`;

/** bigint and numeric come back from pg as text. */
function totals(row: TotalsRow): UsageTotals {
  return {
    executions: Number(row.executions),
    llm_calls: Number(row.llm_calls),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
    search_calls: Number(row.search_calls),
    cost_usd: Number(row.cost_usd),
  };
}

/** The SQL of usage events (table `usage_events`). */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records a batch of provider calls with one statement; a check's usage is written once
   * (uq_usage_events_execution_id), so a repeated result cannot count twice.
   */
  async record(
    records: UsageRecord[],
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<void> {
    if (records.length === 0) return;
    await manager.query(
      `INSERT INTO usage_events (user_id, kind, execution_id, provider, model, input_tokens, output_tokens, search_calls, cost_usd)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::numeric[])
       ON CONFLICT (execution_id) WHERE execution_id IS NOT NULL DO NOTHING`,
      [
        records.map((record) => record.userId),
        records.map((record) => record.kind),
        records.map((record) => record.executionId),
        records.map((record) => record.usage.provider),
        records.map((record) => record.usage.model),
        records.map((record) => record.usage.input_tokens),
        records.map((record) => record.usage.output_tokens),
        records.map((record) => record.usage.search_calls),
        records.map((record) => record.usage.cost_usd),
      ],
    );
  }

  /** One user's sums in [from, to), served by ix_usage_events_user_id_created_at. */
  async totalsFor(userId: string, from: Date, to: Date): Promise<UsageTotals> {
    const [row] = await queryRows<TotalsRow>(
      this.dataSource,
      `SELECT ${TOTALS} FROM usage_events ue WHERE ue.user_id = $1 AND ue.created_at >= $2 AND ue.created_at < $3`,
      [userId, from, to],
    );
    return totals(row);
  }

  /**
   * The users among `userIds` whose cost since `from`, with the calls they have under way
   * (reservations of the last `lifetimeSeconds`), reached `budget`.
   */
  async usersAtBudget(
    userIds: string[],
    from: Date,
    budget: number,
    lifetimeSeconds: number,
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await queryRows<{ user_id: string }>(
      manager,
      `SELECT u.id AS user_id FROM unnest($1::uuid[]) AS u(id)
       WHERE (SELECT coalesce(sum(cost_usd), 0) FROM usage_events
              WHERE user_id = u.id AND created_at >= $2)
           + (SELECT coalesce(sum(estimated_cost_usd), 0) FROM budget_reservations
              WHERE user_id = u.id AND created_at >= now() - make_interval(secs => $4)) >= $3`,
      [userIds, from, budget, lifetimeSeconds],
    );
    return new Set(rows.map((row) => row.user_id));
  }

  /**
   * Holds the users' rows (FOR NO KEY UPDATE, in id order: the users come first in the lock order:
   * docs/architecture.md, "One lock order") until the caller's transaction ends, so their budget
   * checks and reservations happen one at a time.
   */
  async lockUsers(manager: EntityManager, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(
      'SELECT id FROM users WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
      [[...new Set(userIds)].sort()],
    );
  }

  /**
   * Reserves one call of the user when the month's cost since `from` plus the calls under way
   * (reservations of the last `lifetimeSeconds`; older ones are dropped) is still under `budget`; the
   * caller holds the user's row. The reservation is the user's most expensive call of the last
   * month or so (ix_usage_events_user_id_created_at). Returns its id, or null at the budget.
   */
  async reserve(
    manager: EntityManager,
    userId: string,
    from: Date,
    budget: number,
    lifetimeSeconds: number,
  ): Promise<string | null> {
    await manager.query(
      `DELETE FROM budget_reservations
       WHERE user_id = $1 AND created_at < now() - make_interval(secs => $2)`,
      [userId, lifetimeSeconds],
    );
    const rows = await queryRows<{ id: string }>(
      manager,
      `WITH spent AS (
         SELECT coalesce(sum(cost_usd) FILTER (WHERE created_at >= $2), 0) AS total,
                coalesce(max(cost_usd), 0) AS largest
         FROM usage_events WHERE user_id = $1 AND created_at >= $2::timestamptz - interval '31 days'
       ),
       held AS (
         SELECT coalesce(sum(estimated_cost_usd), 0) AS total FROM budget_reservations
         WHERE user_id = $1
       )
       INSERT INTO budget_reservations (user_id, estimated_cost_usd)
       SELECT $1, spent.largest FROM spent, held WHERE spent.total + held.total < $3
       RETURNING id`,
      [userId, from, budget],
    );
    return rows[0]?.id ?? null;
  }

  /** Ends reservations whose calls are over (their usage, if any, is recorded with this). */
  async release(
    ids: string[],
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<void> {
    if (ids.length === 0) return;
    await manager.query('DELETE FROM budget_reservations WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** Every user with usage in [from, to), highest cost first, and how many there are. */
  async listUsers(
    from: Date,
    to: Date,
    limit: number,
    offset: number,
  ): Promise<{ users: UserUsageTotals[]; total: number }> {
    const rows = await queryRows<
      TotalsRow & { user_id: string; email: string | null; total: number }
    >(
      this.dataSource,
      `SELECT ue.user_id, u.email, ${TOTALS}, (count(*) OVER ())::int AS total
       FROM usage_events ue JOIN users u ON u.id = ue.user_id
       WHERE ue.created_at >= $1 AND ue.created_at < $2
       GROUP BY ue.user_id, u.email
       ORDER BY coalesce(sum(ue.cost_usd), 0) DESC, ue.user_id
       LIMIT $3 OFFSET $4`,
      [from, to, limit, offset],
    );
    const total =
      rows.length > 0
        ? rows[0].total
        : (
            await queryRows<{ total: number }>(
              this.dataSource,
              `SELECT count(DISTINCT user_id)::int AS total FROM usage_events WHERE created_at >= $1 AND created_at < $2`,
              [from, to],
            )
          )[0].total;
    return {
      users: rows.map((row) => ({ user_id: row.user_id, email: row.email, ...totals(row) })),
      total,
    };
  }
}
