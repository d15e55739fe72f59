import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import { digestDestination, groupDigest, type DigestItem } from './digest-grouping';
import { digestWebhookPayload, fitDigestLines } from './digest-message';

const email = (address: string): NotificationConfig => ({ type: 'email', address });
const webhook = (secret: string): NotificationConfig => ({
  type: 'webhook',
  url: 'https://hooks.example.com/in',
  method: 'POST',
  headers: {},
  secret,
});
const telegram = (bot_token: string): NotificationConfig => ({
  type: 'telegram',
  chat_id: '-100123',
  bot_token,
});

function item(recordId: string, taskId: string, config: NotificationConfig, minute: number) {
  return {
    recordId,
    taskId,
    config,
    occurredAt: new Date(`2026-11-26T07:${String(minute).padStart(2, '0')}:00Z`),
    data: { record: recordId },
  } satisfies DigestItem;
}

describe('digestDestination', () => {
  it('should name one destination for one address, URL or chat across tasks', () => {
    expect(digestDestination(email('Ann@Example.com'), 't1')).toBe(
      digestDestination(email('ann@example.com'), 't2'),
    );
    expect(digestDestination(telegram('1:a'), 't1')).toBe(digestDestination(telegram('2:b'), 't2'));
    expect(
      digestDestination({ type: 'slack', url: 'https://hooks.slack.com/services/A' }, 't1'),
    ).toBe('slack:https://hooks.slack.com/services/A');
  });

  it('should keep webhooks of different tasks apart when they share a URL', () => {
    expect(digestDestination(webhook('whsec_a'), 't1')).not.toBe(
      digestDestination(webhook('whsec_b'), 't2'),
    );
  });
});

describe('groupDigest', () => {
  it('should gather one message per destination across the owner tasks, oldest event first', () => {
    const groups = groupDigest([
      item('r3', 't2', email('ann@example.com'), 30),
      item('r1', 't1', email('ann@example.com'), 10),
      item('r2', 't1', webhook('whsec_a'), 20),
      item('r4', 't2', webhook('whsec_b'), 40),
    ]);
    expect(groups.map((group) => [group.destination, group.items.map((i) => i.recordId)])).toEqual([
      ['email:ann@example.com', ['r1', 'r3']],
      ['webhook:t1', ['r2']],
      ['webhook:t2', ['r4']],
    ]);
  });

  it('should send through the latest event config when configs of one destination differ', () => {
    const [group] = groupDigest([
      item('r2', 't2', telegram('2:new'), 20),
      item('r1', 't1', telegram('1:old'), 10),
    ]);
    expect(group.config).toEqual(telegram('2:new'));
  });

  it('should give no group when the period is empty', () => {
    expect(groupDigest([])).toEqual([]);
  });
});

describe('digestWebhookPayload', () => {
  it('should carry the period and each event data as it would have been sent, with its type and time', () => {
    const events = [
      {
        type: 'task.condition_met',
        timestamp: '2026-11-26T06:10:00.000Z',
        data: { task: { id: 't1' }, folded: 2 },
      },
      {
        type: 'task.condition_retracted',
        timestamp: '2026-11-26T06:20:00.000Z',
        data: { task: { id: 't1' }, retracted_execution_id: 'e1' },
      },
    ];
    expect(
      digestWebhookPayload(
        {
          period_start: new Date('2026-11-25T07:00:00Z'),
          period_end: new Date('2026-11-26T07:00:00Z'),
        },
        new Date('2026-11-26T07:00:05Z'),
        events,
      ),
    ).toEqual({
      type: 'digest',
      timestamp: '2026-11-26T07:00:05.000Z',
      data: {
        period_start: '2026-11-25T07:00:00.000Z',
        period_end: '2026-11-26T07:00:00.000Z',
        events: [
          {
            type: 'task.condition_met',
            timestamp: '2026-11-26T06:10:00.000Z',
            task: { id: 't1' },
            folded: 2,
          },
          {
            type: 'task.condition_retracted',
            timestamp: '2026-11-26T06:20:00.000Z',
            task: { id: 't1' },
            retracted_execution_id: 'e1',
          },
        ],
      },
    });
  });
});

describe('fitDigestLines', () => {
  const lines = ['first event', 'second event', 'third event', 'fourth event'];

  it('should keep every line when they fit', () => {
    expect(fitDigestLines({ lines, maxLength: 1000 })).toBe(lines.join('\n'));
  });

  it('should summarise the rest as "and N more" when the lines exceed the limit', () => {
    const text = fitDigestLines({ lines, maxLength: 40 });
    expect(text).toBe('first event\nsecond event\nand 2 more');
    expect(text.length).toBeLessThanOrEqual(40);
  });

  it('should count with the channel measure when it counts bytes', () => {
    const bytes = (text: string) => Buffer.byteLength(text);
    const text = fitDigestLines({ lines: ['é'.repeat(10), 'x'], maxLength: 15, measure: bytes });
    expect(text).toBe('and 2 more');
  });
});
