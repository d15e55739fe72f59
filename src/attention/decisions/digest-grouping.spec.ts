import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import { groupDigest, type DigestItem } from './digest-grouping';

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

function item(recordId: string, destination: string, config: NotificationConfig, minute: number) {
  return {
    recordId,
    destination,
    config,
    occurredAt: new Date(`2026-11-26T07:${String(minute).padStart(2, '0')}:00Z`),
  } satisfies DigestItem;
}

describe('groupDigest', () => {
  it('should gather one message per destination across the owner tasks, oldest event first', () => {
    const groups = groupDigest([
      item('r3', 'email:ann@example.com', email('ann@example.com'), 30),
      item('r1', 'email:ann@example.com', email('Ann@example.com'), 10),
      item('r2', 'webhook:t1', webhook('whsec_a'), 20),
      item('r4', 'webhook:t2', webhook('whsec_b'), 40),
    ]);
    expect(groups.map((group) => [group.destination, group.items.map((i) => i.recordId)])).toEqual([
      ['email:ann@example.com', ['r1', 'r3']],
      ['webhook:t1', ['r2']],
      ['webhook:t2', ['r4']],
    ]);
  });

  it('should send through the latest event config when configs of one destination differ', () => {
    const [group] = groupDigest([
      item('r2', 'telegram:-100123', telegram('2:new'), 20),
      item('r1', 'telegram:-100123', telegram('1:old'), 10),
    ]);
    expect(group.config).toEqual(telegram('2:new'));
  });

  it('should give no group when the period is empty', () => {
    expect(groupDigest([])).toEqual([]);
  });
});
