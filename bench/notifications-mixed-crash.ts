/**
 * Crash test for mixed deliveries: every task notifies by email AND webhook. `kill -9` of the
 * service while both channels have attempts in flight, restart, wait until every delivery is
 * final. Reports, per channel, notifications lost (never received) and repeated (received more
 * than once), and whether every repeat carried the id of the first attempt (`Message-ID` for
 * email, `webhook-id` for webhooks). The receivers tell notifications apart by content, not by
 * those ids: the email subject names the task, the webhook body carries the execution id.
 *
 * Run: `npx ts-node --transpile-only bench/notifications-mixed-crash.ts` (builds the service
 * first; BENCH_SKIP_BUILD=1 skips that). Uses DATABASE_URL when set, else an embedded
 * PostgreSQL. Knob: BENCH_MIXED_CRASH_TASKS (300).
 */
import { SmtpTestServer } from '../test/support/smtp-test-server';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import {
  createDatabase,
  openQueue,
  sleep,
  startServer,
  writeBenchmarkSection,
} from './bench-support';
import {
  buildService,
  machine,
  seedDeliveries,
  startService,
  webhookConfig,
  type RunningService,
} from './notifications-support';

const TASKS = Number(process.env.BENCH_MIXED_CRASH_TASKS ?? 300);
/** The SMTP server's final reply waits this long, so emails are in flight at the kill. */
const SMTP_REPLY_DELAY_MS = 250;
/** Webhook answers are spread over 0..this, so webhooks are in flight at the kill too. */
const WEBHOOK_MAX_DELAY_MS = 4000;
/** The kill comes once this share of all deliveries is recorded as delivered. */
const KILL_AT = 0.4;

interface ChannelResult {
  /** Notifications (one per task) received at least once. */
  received: number;
  lost: number;
  /** Receptions beyond the first, summed over notifications. */
  repeats: number;
  /** Notifications received more than once. */
  repeated: number;
  /** Notifications whose receptions did not all carry the same id. */
  repeatsWithAnotherId: number;
  receivedAtKill: number;
}

/** Groups receptions by notification and checks the ids each notification was received with. */
function tally(receptions: Array<{ key: string; id: string }>, atKill: number): ChannelResult {
  const byKey = new Map<string, string[]>();
  for (const { key, id } of receptions) byKey.set(key, [...(byKey.get(key) ?? []), id]);
  const groups = [...byKey.values()];
  return {
    received: groups.length,
    lost: TASKS - groups.length,
    repeats: groups.reduce((sum, ids) => sum + ids.length - 1, 0),
    repeated: groups.filter((ids) => ids.length > 1).length,
    repeatsWithAnotherId: groups.filter((ids) => new Set(ids).size > 1).length,
    receivedAtKill: atKill,
  };
}

async function main(): Promise<void> {
  const measuredOn = machine();
  if (process.env.BENCH_SKIP_BUILD !== '1') buildService();
  const server = await startServer();
  const receiver = await new WebhookReceiver().start();
  receiver.respondWith(() => ({
    status: 200,
    delayMs: Math.round(Math.random() * WEBHOOK_MAX_DELAY_MS),
  }));
  const smtp = await new SmtpTestServer().start();
  smtp.replyDelayMs = SMTP_REPLY_DELAY_MS;
  let service: RunningService | null = null;
  try {
    const databaseUrl = await createDatabase(server.adminUrl, 'bench_notifications_mixed_crash');
    const env = {
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Monitor <monitor@bench.test>',
      // The tasks mail addresses nobody verified: the recipient policy is not what is measured.
      EMAIL_RECIPIENT_POLICY: 'any',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,5s,30s',
      LOG_LEVEL: 'error',
    };
    service = await startService(env);
    const { pool, boss } = await openQueue(databaseUrl);
    const total = TASKS * 2;
    const deliveredCount = async (): Promise<number> => {
      const { rows } = await pool.query<{ done: number }>(
        "SELECT count(*)::int AS done FROM notification_deliveries WHERE state = 'delivered'",
      );
      return rows[0].done;
    };
    try {
      await seedDeliveries(
        pool,
        boss,
        TASKS,
        [{ type: 'email', address: 'watcher@example.com' }, webhookConfig(`${receiver.url}/mixed`)],
        1000,
      );
      while ((await deliveredCount()) < total * KILL_AT) await sleep(10);
      await service.stop('SIGKILL');
      const atKill = { email: smtp.messages.length, webhook: receiver.count };
      const recordedAtKill = await deliveredCount();
      const restartedAt = Date.now();
      service = await startService(env);
      let done = recordedAtKill;
      while (done < total && Date.now() - restartedAt < 300_000) {
        await sleep(250);
        done = await deliveredCount();
      }
      const recoverySeconds = (Date.now() - restartedAt) / 1000;
      await sleep(2000); // anything still in flight lands before counting
      const { rows: open } = await pool.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM notification_deliveries WHERE state <> 'delivered'",
      );
      const email = tally(
        smtp.messages.map((message) => ({ key: message.subject, id: message.messageId })),
        atKill.email,
      );
      const webhook = tally(
        receiver.requests.map((request) => ({
          key: (JSON.parse(request.body) as { data: { execution: { id: string } } }).data.execution
            .id,
          id: String(request.headers['webhook-id']),
        })),
        atKill.webhook,
      );
      const row = (channel: string, result: ChannelResult): string =>
        `| ${channel} | ${TASKS} | ${result.receivedAtKill} | ${result.received} | **${result.lost}** | ${result.repeated} | ${result.repeats} | ${result.repeatsWithAnotherId} |`;
      const body = [
        `Measured ${measuredOn}. Run with \`npx ts-node --transpile-only bench/notifications-mixed-crash.ts\`.`,
        '',
        `${TASKS} tasks, each with an email and a webhook config and one met condition, so`,
        `${total} deliveries due at once. The built service runs as its own process against`,
        'PostgreSQL on the same cores; the SMTP server (smtp-server, in the benchmark process)',
        `holds its final reply to each message for ${SMTP_REPLY_DELAY_MS} ms, the webhook receiver`,
        `answers 200 after 0 to ${WEBHOOK_MAX_DELAY_MS} ms. The service is killed with \`kill -9\``,
        `once ${recordedAtKill} of the ${total} deliveries are recorded as delivered, then started`,
        'again on the same database. A notification is counted by what the receivers got, told',
        'apart by content (email subject, webhook execution id), not by the ids under test.',
        '',
        '| channel | notifications | received at kill | received | lost | repeated | extra receptions | repeats with another id |',
        '|---|---|---|---|---|---|---|---|',
        row('email', email),
        row('webhook', webhook),
        '',
        `Deliveries not \`delivered\` at the end: ${open[0].open}. Restart → all delivered: ${recoverySeconds.toFixed(1)} s.`,
        '',
        'The repeats are the attempts in flight when the process died (handed over, outcome not',
        'recorded): after the restart they go out again, each with the `Message-ID` or',
        '`webhook-id` of its first attempt, which mail clients and receivers following Standard',
        'Webhooks use to drop them. Recovery waits for the dead worker to be taken for dead',
        '(heartbeat silent 20 s); its jobs then go back to the queue at the next sweep.',
      ].join('\n');
      console.log(body);
      await writeBenchmarkSection('Notifications: crash with email and webhook', body);
    } finally {
      await boss.stop({ graceful: false, close: true });
      await pool.end();
    }
  } finally {
    await service?.stop();
    await smtp.stop();
    await receiver.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
