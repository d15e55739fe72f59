/**
 * The work of the bare limit, shared by the two handlers the API benchmark measures the service
 * against: `bare-api-server.ts` (`node:http`) and `nest-floor-server.ts` (NestJS on Express with
 * nothing of the service's own). Each request does what the service's hot paths do in the
 * database (API key lookup by hash, one upsert of the three rate-limit windows, the query; with an
 * Idempotency-Key, its claim, the count of live keys and its answer kept in the transaction of the
 * insert) as named prepared statements, as the service's
 * hot statements are, and maps rows to the API's JSON; nothing else: no validation, no logging.
 */
import { createHash } from 'node:crypto';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

/** A fixed statement, run as a named prepared statement, as the service runs its hot ones. */
function query<R extends Record<string, unknown>>(name: string, text: string, values: unknown[]) {
  return pool.query<R>({ name, text, values });
}

const WINDOWS = [
  { name: 'm', ms: 60_000 },
  { name: 'h', ms: 3_600_000 },
  { name: 'd', ms: 86_400_000 },
];

const TASK_COLUMNS = `t.id, t.user_id, t.name, t.search_query, t.condition_description, t.state, t.notify_behavior,
  t.output_schema, t.evidence, t.pages, t.page_rule, t.alert_policy, t.alert_execution_id,
  t.alert_notified_at, t.alert_acknowledged_at, t.alert_repeats_sent, t.next_run, t.is_public, t.view_count,
  t.subscriber_count,
  t.forked_from_task_id, t.last_known_state, t.last_execution_id, t.notifications, t.state_changed_at,
  t.created_at, t.updated_at`;
const EXECUTION_COLUMNS = `e.id AS e_id, e.task_id AS e_task_id, e.status AS e_status, e.started_at AS e_started_at,
  e.completed_at AS e_completed_at, e.result AS e_result, e.error_message AS e_error_message,
  e.notification AS e_notification, e.grounding_sources AS e_grounding_sources, e.condition_met AS e_condition_met,
  e.claimed_met AS e_claimed_met, e.evidence AS e_evidence, e.output_values AS e_output_values,
  e.value_changes AS e_value_changes, e.answer AS e_answer, e.reasoning AS e_reasoning, e.usage AS e_usage,
  e.page_results AS e_page_results, e.verdict_execution_id AS e_verdict_execution_id, e.created_at AS e_created_at`;

export type Row = Record<string, unknown>;

function iso(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : null;
}

/** A row as the service answers its owner: the same fields in the same order, so the same bytes. */
function toTask(row: Row): Row {
  const notifications = row.notifications as Array<{
    type: string;
    address?: string;
    url?: string;
  }>;
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    search_query: row.search_query,
    condition_description: row.condition_description,
    state: row.state,
    notify_behavior: row.notify_behavior,
    output_schema: row.output_schema,
    evidence: row.evidence,
    pages: row.pages,
    page_rule: row.page_rule,
    alert_policy: row.alert_policy,
    alert:
      row.state === 'completed' || row.alert_execution_id === null || row.alert_notified_at === null
        ? null
        : {
            execution_id: row.alert_execution_id,
            notified_at: iso(row.alert_notified_at),
            acknowledged_at: iso(row.alert_acknowledged_at),
            repeats_sent: row.alert_repeats_sent,
          },
    next_run: iso(row.next_run),
    is_public: row.is_public,
    view_count: row.view_count,
    subscriber_count: row.subscriber_count,
    forked_from_task_id: row.forked_from_task_id,
    last_known_state: row.last_known_state,
    last_execution_id: row.last_execution_id,
    last_execution:
      row.e_id === null || row.e_id === undefined
        ? null
        : {
            id: row.e_id,
            task_id: row.e_task_id,
            status: row.e_status,
            started_at: iso(row.e_started_at),
            completed_at: iso(row.e_completed_at),
            result: row.e_result,
            error_message: row.e_error_message,
            notification: row.e_notification,
            grounding_sources: row.e_grounding_sources,
            condition_met: row.e_condition_met,
            claimed_met: row.e_claimed_met,
            evidence: row.e_evidence,
            values: row.e_output_values,
            changes: row.e_value_changes,
            answer: row.e_answer,
            reasoning: row.e_reasoning,
            usage: row.e_usage,
            page_results: row.e_page_results,
            verdict_execution_id: row.e_verdict_execution_id,
            created_at: iso(row.e_created_at),
          },
    notifications,
    notification_email: notifications.find((config) => config.type === 'email')?.address ?? null,
    webhook_url: notifications.find((config) => config.type === 'webhook')?.url ?? null,
    state_changed_at: iso(row.state_changed_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The caller's user id from an `Authorization: Bearer` API key, counted in its rate-limit windows. */
export async function callerOf(authorization: string | undefined): Promise<string | null> {
  const key = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!key) return null;
  const hash = createHash('sha256').update(key).digest('hex');
  const { rows } = await query<{ key_id: string; user_id: string }>(
    'caller',
    `SELECT k.id AS key_id, u.id AS user_id FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE k.key_hash = $1 AND k.state = 'active' AND u.state = 'active'`,
    [hash],
  );
  if (rows.length === 0) return null;
  const now = Date.now();
  const starts = WINDOWS.map((window) => new Date(Math.floor(now / window.ms) * window.ms));
  await query(
    'hit',
    `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
     SELECT bucket, window_start, 1, expires_at
     FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS t(bucket, window_start, expires_at)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
     RETURNING bucket, hits`,
    [
      WINDOWS.map((window) => `bare:${rows[0].key_id}:${window.name}`),
      starts,
      starts.map((start, index) => new Date(start.getTime() + WINDOWS[index].ms)),
    ],
  );
  return rows[0].user_id;
}

/** The caller's tasks, newest first, each with its last execution. */
export async function listTasks(userId: string): Promise<Row[]> {
  const { rows } = await query<Row>(
    'list',
    `SELECT ${TASK_COLUMNS}, ${EXECUTION_COLUMNS} FROM tasks t
     LEFT JOIN executions e ON e.id = t.last_execution_id
     WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id DESC`,
    [userId],
  );
  return rows.map(toTask);
}

/** One of the caller's tasks, or null. */
export async function findTask(id: string, userId: string): Promise<Row | null> {
  const { rows } = await query<Row>(
    'by_id',
    `SELECT ${TASK_COLUMNS}, ${EXECUTION_COLUMNS} FROM tasks t
     LEFT JOIN executions e ON e.id = t.last_execution_id WHERE t.id = $1 AND t.user_id = $2`,
    [id, userId],
  );
  return rows.length === 0 ? null : toTask(rows[0]);
}

/**
 * Creates a task from a parsed body, answered as the service answers a create. With an
 * Idempotency-Key, as the service does: claims the key (null when another request holds it),
 * counts the user's live keys, then inserts the task and keeps its answer in one transaction.
 * `raw` is the body as received, fingerprinted for the claim.
 */
export async function createTask(
  userId: string,
  body: Row,
  raw: string,
  key: string | undefined,
): Promise<Row | null> {
  const values = [
    userId,
    body.name ?? 'New Monitor',
    body.search_query,
    body.condition_description ?? body.search_query,
    body.state ?? 'active',
  ];
  if (key === undefined) return created((await query<Row>('insert', INSERT, values)).rows[0]);
  const claimed = await query(
    'claim',
    `INSERT INTO idempotency_keys (user_id, key, claim, fingerprint, created_at)
     VALUES ($1, $2, gen_random_uuid(), $3, now()) ON CONFLICT DO NOTHING`,
    [userId, key, createHash('sha256').update(raw).digest('hex')],
  );
  if (claimed.rowCount === 0) return null;
  await query(
    'live',
    `SELECT count(*)::int AS live FROM (
       SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND created_at >= now() - interval '1 day' LIMIT 10001
     ) AS k`,
    [userId],
  );
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const task = created(
      (await client.query<Row>({ name: 'insert', text: INSERT, values })).rows[0],
    );
    await client.query({
      name: 'keep',
      text: `UPDATE idempotency_keys SET response_status = 200, response_body = $3
             WHERE user_id = $1 AND key = $2`,
      values: [userId, key, JSON.stringify(task)],
    });
    await client.query('COMMIT');
    return task;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const INSERT = `INSERT INTO tasks (user_id, name, search_query, condition_description, state, notify_behavior, notifications, state_changed_at)
  VALUES ($1, $2, $3, $4, $5, 'once', '[]', now())
  RETURNING ${TASK_COLUMNS.replace(/t\./g, '')}, NULL AS e_id`;

function created(row: Row): Row {
  return { ...toTask(row), immediate_execution_error: null };
}
