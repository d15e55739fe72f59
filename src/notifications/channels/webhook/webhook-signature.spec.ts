import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from './webhook.channel';
import { signWebhook } from './webhook-signature';

describe('signWebhook', () => {
  it('should produce a signature the standardwebhooks package accepts when given a whsec_ secret', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'task.condition_met', data: { text: 'ünïcode ✓' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, 'msg_abc', timestamp, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('should match the package’s own signature when signing the same message', () => {
    const secret = generateWebhookSecret();
    const at = new Date('2026-03-01T12:00:00Z');
    expect(signWebhook(secret, 'msg_1', at.getTime() / 1000, '{"a":1}')).toBe(
      new Webhook(secret).sign('msg_1', at, '{"a":1}'),
    );
  });

  it('should not verify when the body changes after signing', () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, 'msg_1', timestamp, '{"a":1}');
    expect(() =>
      new Webhook(secret).verify('{"a":2}', {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      }),
    ).toThrow();
  });
});
