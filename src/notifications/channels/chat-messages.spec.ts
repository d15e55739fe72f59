import type { NotificationContent } from '../content/notification-content';
import { discordMessage } from './discord/discord.channel';
import { maskUrl } from './notification-channel';
import { headerText, ntfyMessage } from './ntfy/ntfy.channel';
import { slackMessage } from './slack/slack.channel';
import { telegramText } from './telegram/telegram.channel';

function content(answer = 'It is <b>9</b> & *cheap* @everyone'): NotificationContent {
  return {
    event: 'condition_met',
    task: {
      id: 'task-1',
      name: 'Price <watch>',
      searchQuery: 'price of x',
      conditionDescription: 'price drops below 10',
    },
    execution: {
      id: 'execution-1',
      status: 'success',
      conditionMet: true,
      answer,
      reasoning: 'Because.',
      errorMessage: null,
      groundingSources: Array.from({ length: 7 }, (_, index) => ({
        uri: `https://shop.example.com/${index}?a=1&b=2`,
        title: `Shop <${index}> | x`,
      })),
      completedAt: new Date('2026-02-03T04:05:06Z'),
    },
    consecutiveFailures: 0,
    occurredAt: new Date('2026-02-03T04:05:06Z'),
  };
}

describe('maskUrl', () => {
  it('should keep the origin and hide the rest when the URL has a path or query', () => {
    expect(maskUrl('https://hooks.slack.com/services/T0/B0/secret')).toBe(
      'https://hooks.slack.com/****',
    );
    expect(maskUrl('https://ntfy.sh/?topic=x')).toBe('https://ntfy.sh/****');
  });

  it('should give the origin alone when the URL has no path', () => {
    expect(maskUrl('https://example.com/')).toBe('https://example.com');
  });
});

describe('slackMessage', () => {
  it('should escape mrkdwn control characters when the text comes from the model', () => {
    const message = slackMessage(content());
    const json = JSON.stringify(message.blocks);
    expect(json).toContain('It is &lt;b&gt;9&lt;/b&gt; &amp; *cheap*');
    expect(message.text).toBe(
      'Price &lt;watch&gt;: condition met: Condition: price drops below 10',
    );
  });

  it('should link at most five sources when there are more', () => {
    const json = JSON.stringify(slackMessage(content()).blocks);
    expect(json.match(/<https:\/\/shop/g)).toHaveLength(5);
    expect(json).toContain('Shop &lt;0&gt; ¦ x');
  });

  it('should keep every section within 3,000 characters when the answer is long', () => {
    const message = slackMessage(content('x'.repeat(10_000)));
    for (const block of message.blocks as Array<{ text?: { text: string } }>) {
      expect((block.text?.text ?? '').length).toBeLessThanOrEqual(3000);
    }
  });
});

describe('discordMessage', () => {
  it('should escape markdown and ping nobody when the text holds mentions', () => {
    const message = discordMessage(content());
    const embed = (message.embeds as Array<{ fields: Array<{ name: string; value: string }> }>)[0];
    expect(embed.fields[0].value).toBe('It is <b\\>9</b\\> & \\*cheap\\* @everyone');
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('should keep content within 2,000 and fields within 1,024 characters when texts are long', () => {
    const long = content('y'.repeat(5000));
    long.task.name = 'n'.repeat(3000);
    const message = discordMessage(long);
    expect((message.content as string).length).toBeLessThanOrEqual(2000);
    const embed = (message.embeds as Array<{ fields: Array<{ value: string }> }>)[0];
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
  });
});

describe('telegramText', () => {
  it('should escape HTML and link sources when the text comes from the model', () => {
    const text = telegramText(content());
    expect(text).toContain('<b>Price &lt;watch&gt;: condition met</b>');
    expect(text).toContain('It is &lt;b&gt;9&lt;/b&gt; &amp; *cheap*');
    expect(text).toContain(
      '<a href="https://shop.example.com/0?a=1&amp;b=2">Shop &lt;0&gt; | x</a>',
    );
    expect(text.match(/<a href=/g)).toHaveLength(5);
  });

  it('should stay within 4,096 visible characters when the answer is very long', () => {
    const text = telegramText(content('z'.repeat(20_000)));
    const visible = text.replace(/<[^>]+>/g, '').replace(/&(lt|gt|amp|quot|#39);/g, '_');
    expect(visible.length).toBeLessThanOrEqual(4096);
  });
});

describe('ntfyMessage', () => {
  it('should give a title, tags and the first source as the click action when the condition is met', () => {
    const message = ntfyMessage(content());
    expect(message.headers).toEqual({
      Title: 'Price <watch>: condition met',
      Tags: 'white_check_mark',
      Click: 'https://shop.example.com/0?a=1&b=2',
    });
    expect(message.body).toContain('Answer: It is <b>9</b>');
  });

  it('should encode the title as RFC 2047 when it is not ASCII', () => {
    expect(headerText('Prix été')).toBe(
      `=?UTF-8?B?${Buffer.from('Prix été').toString('base64')}?=`,
    );
  });

  it('should keep the body within 4,000 bytes when the answer is long', () => {
    expect(Buffer.byteLength(ntfyMessage(content('é'.repeat(5000))).body)).toBeLessThanOrEqual(
      4000,
    );
  });
});
