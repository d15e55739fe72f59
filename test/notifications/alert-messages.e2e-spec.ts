import { randomUUID } from 'node:crypto';
import { SmtpTestServer, type ReceivedEmail } from '../support/smtp-test-server';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import type { CheckReplyOptions } from '../support/wire-stand-in';
import { startTaskHarness, uniqueQuery, type TaskHarness } from '../tasks/task-api';
import { BOT_TOKEN, waitForSends, type SendRow } from './notification-test-helpers';

/** What each channel's receiver got for one event. */
interface Received {
  slack: { text: string; blocks: Array<{ type: string; text?: { text: string } }> };
  discord: {
    content: string;
    embeds: Array<{
      title: string;
      description: string;
      fields: Array<{ name: string; value: string }>;
    }>;
  };
  ntfy: ReceivedWebhook;
  telegram: { text: string; parse_mode: string };
  email: ReceivedEmail;
}

const CHANNELS = ['slack', 'discord', 'ntfy', 'telegram', 'email'] as const;

const SCHEMA = {
  type: 'object',
  properties: {
    price: { type: 'number', description: 'The price in USD' },
    headline: { type: 'string', description: 'The headline of the pricing page' },
  },
  required: ['price'],
};

const SOURCES = [
  { uri: 'https://shop.example/pricing', title: 'Pricing' },
  { uri: 'https://news.example.org/item/7', title: 'News' },
  { uri: 'https://wiki.example/Pricing_(2026)?v=[2]', title: 'Pricing [2026](x)' },
];

/** A value as long as a value may be (1,000 characters), holding markup and an ampersand. */
const LONG_HEADLINE = `Beta <b>& ${'x'.repeat(990)}`;
const NEXT_HEADLINE = `Stable ${'y'.repeat(993)}`;

/**
 * Values, changes and withdrawn alerts (docs/api.md, "Values, evidence, confirmation and
 * retraction") through every chat and push channel and email: a task driven by the Gemini
 * stand-in through a values baseline and a change, and through a met alert and its withdrawal,
 * and what the local receivers (Slack, Discord, ntfy, the Telegram Bot API) and the SMTP server
 * actually got.
 */
describe('Value changes and withdrawn alerts on every channel', () => {
  let harness: TaskHarness;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    harness = await startTaskHarness({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'alerts@monitor.test',
      TELEGRAM_API_BASE_URL: `${receiver.url}/telegram`,
      WEBHOOK_RETRY_SCHEDULE: '200ms',
    });
  });

  afterAll(async () => {
    await harness.close();
    await smtp.stop();
    await receiver.stop();
  });

  /** A paused task notifying all five channels at addresses of its own. */
  async function createTask(query: string, body: Record<string, unknown>) {
    const path = `/alerts-${randomUUID()}`;
    const chatId = `-100${Date.now()}`;
    const address = `watcher-${randomUUID()}@example.com`;
    const task = await harness.factory.task(harness.owner, {
      name: 'Pricing <watch>',
      search_query: query,
      notifications: [
        { type: 'slack', url: `${receiver.url}${path}/slack` },
        { type: 'discord', url: `${receiver.url}${path}/discord` },
        { type: 'ntfy', url: `${receiver.url}${path}/ntfy` },
        { type: 'telegram', chat_id: chatId, bot_token: BOT_TOKEN },
        { type: 'email', address },
      ],
      ...body,
    });
    return { task, path, chatId, address };
  }

  async function run(taskId: string): Promise<void> {
    const pending = await harness.api.execute(harness.owner, taskId);
    const done = await harness.api.waitForExecution(harness.owner, taskId, pending.id);
    expect(done.status).toBe('success');
  }

  function reply(options: CheckReplyOptions) {
    return harness.gemini.checkReply({ nextCheckAt: null, sources: SOURCES, ...options });
  }

  /** Waits for one successful send of `event` per channel, then reads each receiver's copy. */
  async function received(
    target: Awaited<ReturnType<typeof createTask>>,
    event: string,
    sendsBefore: number,
  ): Promise<Received> {
    const sends: SendRow[] = await waitForSends(
      harness.testApp,
      target.task.id,
      sendsBefore + CHANNELS.length,
    );
    expect(
      sends
        .filter((send) => send.event === event)
        .map((send) => [send.notification_type, send.status])
        .sort(),
    ).toEqual(CHANNELS.map((channel) => [channel, 'success']).sort());
    const last = <T>(requests: T[]): T => requests[requests.length - 1];
    const telegram = receiver
      .requestsTo(`/telegram/bot${BOT_TOKEN}/sendMessage`)
      .filter((request) => request.body.includes(target.chatId));
    return {
      slack: JSON.parse(
        last(receiver.requestsTo(`${target.path}/slack`)).body,
      ) as Received['slack'],
      discord: JSON.parse(
        last(receiver.requestsTo(`${target.path}/discord`)).body,
      ) as Received['discord'],
      ntfy: last(receiver.requestsTo(`${target.path}/ntfy`)),
      telegram: JSON.parse(last(telegram).body) as Received['telegram'],
      email: last(smtp.messagesTo(target.address)),
    };
  }

  it('should say what changed as "field: before → after" after the silent baseline, within each channel’s limits', async () => {
    const query = uniqueQuery('pricing page');
    harness.provider.script(
      query,
      reply({ values: { price: 10, headline: LONG_HEADLINE } }),
      reply({ values: { price: 12.5, headline: NEXT_HEADLINE } }),
    );
    const target = await createTask(query, { notify_behavior: 'on_change', output_schema: SCHEMA });
    await run(target.task.id);
    await run(target.task.id);
    const got = await received(target, 'values_changed', 0);
    const priceLine = 'price: 10 → 12.5';

    // Slack: a header block, then mrkdwn sections; markup in a value is escaped.
    expect(got.slack.text).toBe(
      'Pricing &lt;watch&gt;: values changed: 2 values changed since the last check.',
    );
    expect(got.slack.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Pricing <watch>: values changed' },
    });
    const changes = got.slack.blocks.find((block) => block.text?.text.startsWith('*Changes*'));
    expect(changes).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect(changes?.text?.text).toContain(
      `*Changes*\n${priceLine}\nheadline: Beta &lt;b&gt;&amp; xxx`,
    );
    expect(changes?.text?.text).toContain(`→ Stable yyy`);

    // Discord: the long change line is cut to the field limit; nothing passes 2,000 characters.
    expect(got.discord.content).toBe('**Pricing \\<watch\\>: values changed**');
    const [embed] = got.discord.embeds;
    const field = embed.fields.find((candidate) => candidate.name === 'Changes');
    expect(field?.value.startsWith(`${priceLine}\nheadline: Beta \\<b\\>& xxx`)).toBe(true);
    expect(field?.value.endsWith('…')).toBe(true);
    for (const text of [got.discord.content, embed.title, embed.description]) {
      expect(text.length).toBeLessThanOrEqual(2000);
    }
    for (const { value } of embed.fields) expect(value.length).toBeLessThanOrEqual(1024);
    // Link syntax in a source's title and URL stays inside its masked link.
    expect(embed.fields.find((candidate) => candidate.name === 'Sources')?.value).toContain(
      '[Pricing \\[2026\\]\\(x\\)](https://wiki.example/Pricing_%282026%29?v=%5B2%5D)',
    );

    // ntfy: plain text.
    expect(got.ntfy.headers.title).toBe('Pricing <watch>: values changed');
    expect(got.ntfy.body).toContain(
      `Changes: ${priceLine}\nheadline: ${LONG_HEADLINE} → ${NEXT_HEADLINE}`,
    );

    // Telegram: HTML, every value escaped.
    expect(got.telegram.parse_mode).toBe('HTML');
    expect(got.telegram.text).toContain('<b>Pricing &lt;watch&gt;: values changed</b>');
    expect(got.telegram.text).toContain(`${priceLine}\nheadline: Beta &lt;b&gt;&amp; xxx`);
    expect(got.telegram.text).not.toContain('<b>&');
    expect(got.telegram.text.length).toBeLessThanOrEqual(4096);

    // Email: both parts; the HTML part escapes the value.
    expect(got.email.subject).toBe('[Monitor] Pricing <watch>: values changed');
    expect(got.email.text).toContain(
      `Changes:\n${priceLine}\nheadline: ${LONG_HEADLINE} → ${NEXT_HEADLINE}`,
    );
    expect(got.email.html).toContain(`${priceLine}<br>headline: Beta &lt;b&gt;&amp; xxx`);
    expect(got.email.html).not.toContain('<b>&');
  });

  it('should say plainly on every channel that a met alert is withdrawn', async () => {
    const query = uniqueQuery('stock page');
    const met = reply({
      conditionMet: true,
      answer: 'In stock <again> & shipping',
      currentState: { in_stock: true },
    });
    const notMet = reply({
      conditionMet: false,
      answer: 'Sold out & no date given',
      currentState: { in_stock: false },
    });
    harness.provider.script(query, met, met, notMet, notMet);
    const target = await createTask(query, {
      notify_behavior: 'always',
      evidence: { confirmations: 2 },
    });
    for (let index = 0; index < 2; index += 1) await run(target.task.id);
    const alert = await received(target, 'condition_met', 0);
    expect(alert.slack.blocks[0].text?.text).toBe('Pricing <watch>: condition met');
    for (let index = 0; index < 2; index += 1) await run(target.task.id);
    const got = await received(target, 'condition_retracted', CHANNELS.length);
    const withdrawn = 'The earlier alert is withdrawn: the condition is no longer met. Condition: ';

    expect(got.slack.blocks[0].text?.text).toBe('Pricing <watch>: alert withdrawn');
    expect(got.slack.text).toBe(
      `Pricing &lt;watch&gt;: alert withdrawn: ${withdrawn}${target.task.condition_description}`,
    );
    expect(JSON.stringify(got.slack.blocks)).toContain('Sold out &amp; no date given');

    expect(got.discord.content).toBe('**Pricing \\<watch\\>: alert withdrawn**');
    expect(got.discord.embeds[0].description).toContain('The earlier alert is withdrawn');

    expect(got.ntfy.headers.title).toBe('Pricing <watch>: alert withdrawn');
    expect(got.ntfy.body).toContain(withdrawn);
    expect(got.ntfy.body).toContain('Answer: Sold out & no date given');

    expect(got.telegram.text).toContain('<b>Pricing &lt;watch&gt;: alert withdrawn</b>');
    expect(got.telegram.text).toContain('The earlier alert is withdrawn');
    expect(got.telegram.text).toContain('Sold out &amp; no date given');

    expect(got.email.subject).toBe('[Monitor] Pricing <watch>: alert withdrawn');
    expect(got.email.text).toContain(withdrawn);
    expect(got.email.html).toContain('<h2>Pricing &lt;watch&gt;: alert withdrawn</h2>');
    // The withdrawn alert was the only one: no channel got a second condition_met.
    expect(smtp.messagesTo(target.address).map((message) => message.subject)).toEqual([
      '[Monitor] Pricing <watch>: condition met',
      '[Monitor] Pricing <watch>: alert withdrawn',
    ]);
  });
});
