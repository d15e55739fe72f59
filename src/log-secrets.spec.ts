import { hostileTexts } from '../test/support/hostile-text';
import { LogRedaction } from './common/logging/log-redaction';
import { LOG_SECRETS } from './log-secrets';

const redaction = new LogRedaction(LOG_SECRETS);

describe('the secrets of the registered providers and channels in the log', () => {
  it.each([
    ['a webhook secret', 'secret whsec_aGVsbG8gd29ybGQ=', 'secret whsec_[Redacted]'],
    ['an ntfy token', 'token tk_abc_def123', 'token tk_[Redacted]'],
    [
      'a Telegram bot token in a path',
      'POST https://api.telegram.org/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
      'POST https://api.telegram.org/[Redacted]/sendMessage',
    ],
    [
      'a Slack hook URL',
      'https://hooks.slack.com/services/T0/B0/xyz',
      'https://hooks.slack.com/[Redacted]',
    ],
    [
      'a Discord hook URL',
      'https://discord.com/api/webhooks/1/abc',
      'https://discord.com/api/webhooks/[Redacted]',
    ],
    [
      'a Gemini API key',
      'key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q rejected',
      'key=AIza[Redacted] rejected',
    ],
    [
      'an OpenAI API key',
      'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUv',
      'Incorrect API key provided: sk-[Redacted]',
    ],
    ['a Perplexity API key', 'key pplx-AbCdEfGhIjKlMnOpQrStUvWx', 'key pplx-[Redacted]'],
  ])('should mask %s in text', (_kind, text, expected) => {
    expect(redaction.scrub(text)).toBe(expected);
  });

  it('should censor the secret fields that the providers and channels declare', () => {
    expect(redaction.paths).toEqual(
      expect.arrayContaining([
        'address',
        'bot_token',
        'config.bot_token',
        'notification.token',
        'config.smtpUrl',
        'config.apiKey',
      ]),
    );
  });

  const shapes = LOG_SECRETS.flatMap((secrets) => secrets.shapes ?? []);

  it.each(shapes.map((shape) => [String(shape.pattern), shape]))(
    'should mask a secret after every hostile text without rescanning it when %s is registered',
    (_pattern, shape) => {
      const alone = new LogRedaction([{ shapes: [shape] }]);
      for (const [kind, text] of Object.entries(hostileTexts(100_000))) {
        // Linear masking takes about a millisecond here, a backtracking shape several seconds;
        // the bound is twenty times what the log may spend on 100 kB (docs/logging.md).
        const started = process.cpuUsage();
        const masked = alone.scrub(`${text} sk_AbCdEf0123 ops@example.org`);
        const used = process.cpuUsage(started);
        const fast = (used.user + used.system) / 1000 < 1000;
        expect({ kind, masked, fast }).toEqual({
          kind,
          masked: `${text} sk_[Redacted] [email]`,
          fast: true,
        });
      }
    },
  );
});
