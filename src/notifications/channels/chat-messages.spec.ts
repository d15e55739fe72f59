import type { DigestContent } from '../content/digest-content';
import { messageParts, type NotificationContent } from '../content/notification-content';
import { discordDigestMessage, discordMessage } from './discord/discord.channel';
import { maskUrl } from './notification-channel';
import { headerText, ntfyDigestMessage, ntfyMessage } from './ntfy/ntfy.channel';
import { slackDigestMessage, slackMessage } from './slack/slack.channel';
import { telegramDigestText, telegramText } from './telegram/telegram.channel';

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
      claimedMet: true,
      evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: true },
      values: null,
      changes: null,
      answer,
      reasoning: 'Because.',
      errorMessage: null,
      groundingSources: Array.from({ length: 7 }, (_, index) => ({
        uri: `https://shop.example.com/${index}?a=1&b=2`,
        title: `Shop <${index}> | x`,
      })),
      pageResults: null,
      verdictExecutionId: 'execution-1',
      completedAt: new Date('2026-02-03T04:05:06Z'),
    },
    consecutiveFailures: 0,
    retractedExecutionId: null,
    repeat: null,
    folded: null,
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
    expect(embed.fields[0].value).toBe('It is \\<b\\>9\\</b\\> & \\*cheap\\* @everyone');
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('should escape link syntax in link texts and targets when a source carries it', () => {
    const tricky = content();
    tricky.execution!.groundingSources = [
      {
        uri: 'https://en.example.org/wiki/Price_(x)?q=[1]#<a>',
        title: 'Price](https://evil.example) <@1> [x]',
      },
      { uri: 'http://[2001:db8::1]:8080/a(b)', title: 'v6' },
    ];
    const embed = (
      discordMessage(tricky).embeds as Array<{ fields: Array<{ name: string; value: string }> }>
    )[0];
    expect(embed.fields.find((field) => field.name === 'Sources')?.value).toBe(
      [
        '[Price\\]\\(https://evil.example\\) \\<@1\\> \\[x\\]](https://en.example.org/wiki/Price_%28x%29?q=%5B1%5D#%3Ca%3E)',
        '[v6](http://[2001:db8::1]:8080/a%28b%29)',
      ].join('\n'),
    );
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

describe('values changed and withdrawn alerts in every chat channel', () => {
  function changed(): NotificationContent {
    const base = content();
    return {
      ...base,
      event: 'values_changed',
      execution: {
        ...base.execution!,
        conditionMet: false,
        claimedMet: false,
        values: { price: 12, stage: '<stable>' },
        changes: [
          { field: 'price', before: 10, after: 12 },
          { field: 'stage', before: null, after: '<stable>' },
        ],
      },
    };
  }

  function withdrawn(): NotificationContent {
    return { ...content(), event: 'condition_retracted', retractedExecutionId: 'execution-0' };
  }

  it('should list changes as field: before → after when values changed', () => {
    expect(JSON.stringify(slackMessage(changed()).blocks)).toContain(
      'price: 10 → 12\\nstage: none → &lt;stable&gt;',
    );
    expect(telegramText(changed())).toContain('price: 10 → 12\nstage: none → &lt;stable&gt;');
    const embed = (
      discordMessage(changed()).embeds as Array<{ fields: Array<{ value: string }> }>
    )[0];
    expect(embed.fields[0].value).toBe('price: 10 → 12\nstage: none → \\<stable\\>');
    expect(ntfyMessage(changed()).body).toContain('Changes: price: 10 → 12');
  });

  it('should say plainly that the alert is withdrawn when it is retracted', () => {
    expect(slackMessage(withdrawn()).text).toContain('Price &lt;watch&gt;: alert withdrawn');
    expect(telegramText(withdrawn())).toContain('<b>Price &lt;watch&gt;: alert withdrawn</b>');
    expect(discordMessage(withdrawn()).content).toContain('alert withdrawn');
    expect(ntfyMessage(withdrawn()).headers.Title).toBe('Price <watch>: alert withdrawn');
  });

  it('should keep Discord within 2,000 characters when many long values changed', () => {
    const many = changed();
    many.execution!.changes = Array.from({ length: 20 }, (_, index) => ({
      field: `field_${index}`,
      before: 'b'.repeat(1000),
      after: 'a'.repeat(1000),
    }));
    const message = discordMessage(many);
    expect((message.content as string).length).toBeLessThanOrEqual(2000);
    const embed = (message.embeds as Array<{ fields: Array<{ value: string }> }>)[0];
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
  });
});

describe('page tasks in every chat channel', () => {
  function pageTask(answer = 'https://shop.example.com/x changed: 2 lines added, 1 removed') {
    const base = content(answer);
    base.execution!.pageResults = [
      {
        url: 'https://shop.example.com/x',
        render: 'http',
        final_url: 'https://shop.example.com/x',
        status: 'changed',
        http_status: 200,
        title: 'Shop <x>',
        error: null,
        added: ['Price: *9*', 'In stock'],
        removed: ['Price: 12'],
        new_items: null,
        values: null,
        value_errors: null,
        fetched_at: '2026-02-03T04:05:00.000Z',
      },
    ];
    return base;
  }

  it('should name the changed page with its first added and removed lines and link it', () => {
    const slack = JSON.stringify(slackMessage(pageTask()).blocks);
    expect(slack).toContain(
      '*Changed pages*\\nShop &lt;x&gt; (https://shop.example.com/x)\\n2 lines added, 1 removed\\n+ Price: *9*\\n+ In stock\\n- Price: 12',
    );
    expect(slack).toContain('<https://shop.example.com/x|Shop &lt;x&gt;>');
    const telegram = telegramText(pageTask());
    expect(telegram).toContain('<b>Changed pages</b>\nShop &lt;x&gt; (https://shop.example.com/x)');
    expect(telegram).toContain('+ Price: *9*\n+ In stock\n- Price: 12');
    expect(telegram).toContain('• <a href="https://shop.example.com/x">Shop &lt;x&gt;</a>');
    const embed = (
      discordMessage(pageTask()).embeds as Array<{
        fields: Array<{ name: string; value: string }>;
      }>
    )[0];
    expect(embed.fields).toContainEqual({
      name: 'Changed pages',
      value:
        'Shop \\<x\\> \\(https://shop.example.com/x\\)\n2 lines added, 1 removed\n\\+ Price: \\*9\\*\n\\+ In stock\n\\- Price: 12',
    });
    expect(embed.fields.at(-1)).toEqual({
      name: 'Sources',
      value: expect.stringMatching(/^\[Shop \\<x\\>\]\(https:\/\/shop\.example\.com\/x\)\n/),
    });
    const ntfy = ntfyMessage(pageTask());
    expect(ntfy.body).toContain('Changed pages: Shop <x> (https://shop.example.com/x)\n2 lines');
    expect(ntfy.headers.Click).toBe('https://shop.example.com/x');
  });

  it('should keep the whole Discord embed within 6,000 characters when every text is long', () => {
    const long = pageTask('y'.repeat(5000));
    long.task.conditionDescription = 'c'.repeat(5000);
    long.execution!.reasoning = 'r'.repeat(5000);
    long.execution!.changes = [{ field: 'f', before: 'b'.repeat(2000), after: 'a'.repeat(2000) }];
    long.execution!.pageResults![0].added = Array.from({ length: 50 }, () => 'l'.repeat(500));
    const embed = (
      discordMessage(long).embeds as Array<{
        title: string;
        description: string;
        fields: Array<{ name: string; value: string }>;
        footer: { text: string };
      }>
    )[0];
    const total =
      embed.title.length +
      embed.description.length +
      embed.footer.text.length +
      embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
  });

  it('should keep Telegram within 4,096 visible characters when every text is long', () => {
    const long = pageTask('y'.repeat(5000));
    long.execution!.reasoning = 'r'.repeat(5000);
    long.execution!.changes = [{ field: 'f', before: 'b'.repeat(2000), after: 'a'.repeat(2000) }];
    const text = telegramText(long);
    expect(text).toContain('<b>Changed pages</b>');
    const visible = text.replace(/<[^>]+>/g, '').replace(/&(lt|gt|amp|quot|#39);/g, '_');
    expect(visible.length).toBeLessThanOrEqual(4096);
  });
});

describe('new items in every chat channel', () => {
  function itemsTask(count: number, titleChars = 20) {
    const base = content(`${count} new items on https://jobs.example/feed`);
    const items = Array.from({ length: count }, (_, index) => ({
      title: `Job ${index}${'t'.repeat(titleChars)}`,
      url: `https://jobs.example/${index}`,
    }));
    base.execution!.pageResults = [
      {
        url: 'https://jobs.example/feed',
        render: 'http',
        final_url: 'https://jobs.example/feed',
        status: 'changed',
        http_status: 200,
        title: 'Jobs',
        error: null,
        added: items.map((item) => `${item.title} ${item.url}`),
        removed: [],
        new_items: items,
        values: null,
        value_errors: null,
        fetched_at: '2026-02-03T04:05:00.000Z',
      },
    ];
    return base;
  }

  it('should list each new item with its title and link', () => {
    const parts = messageParts(itemsTask(2, 0));
    expect(parts.sections).toContainEqual({
      label: 'Changed pages',
      text: [
        'Jobs (https://jobs.example/feed)',
        '2 new items',
        '+ Job 0 https://jobs.example/0',
        '+ Job 1 https://jobs.example/1',
      ].join('\n'),
    });
    expect(telegramText(itemsTask(2, 0))).toContain('+ Job 0 https://jobs.example/0');
    expect(ntfyMessage(itemsTask(2, 0)).body).toContain('+ Job 1 https://jobs.example/1');
  });

  it('should list at most 10 of 50 new items and keep Discord and Telegram within their limits', () => {
    const many = itemsTask(50, 300);
    expect(
      messageParts(many).sections.find((section) => section.label === 'Changed pages')?.text,
    ).toContain('… and 40 more');
    const embed = (
      discordMessage(many).embeds as Array<{ fields: Array<{ name: string; value: string }> }>
    )[0];
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
    const visible = telegramText(many)
      .replace(/<[^>]+>/g, '')
      .replace(/&(lt|gt|amp|quot|#39);/g, '_');
    expect(visible.length).toBeLessThanOrEqual(4096);
  });
});

/** A digest of `count` events of tasks with long names (and a non-ASCII character each). */
function digest(count: number): DigestContent {
  return {
    period: {
      period_start: new Date('2026-02-02T08:00:00Z'),
      period_end: new Date('2026-02-03T08:00:00Z'),
    },
    events: Array.from({ length: count }, (_, index) => ({
      ...content(),
      task: { ...content().task, name: `Watch ${index + 1} <é> ${'x'.repeat(150)}` },
    })),
  };
}

describe('digest messages', () => {
  it('should keep every line when the events fit the channel', () => {
    const lines = slackDigestMessage(digest(2)).blocks[1] as { text: { text: string } };
    expect(lines.text.text.split('\n')).toEqual([
      expect.stringMatching(/^• Watch 1 &lt;é&gt; x+: condition met \(2026-02-03 04:05:06 UTC\)$/),
      expect.stringMatching(/^• Watch 2 /),
    ]);
    expect(slackDigestMessage(digest(2)).text).toBe(
      'Digest: 2 events from 2026-02-02 08:00:00 UTC to 2026-02-03 08:00:00 UTC',
    );
  });

  it('should end with "and N more" within each limit when the events do not fit', () => {
    const many = digest(60);
    const counted = (text: string) => {
      const more = /\nand (\d+) more$/.exec(text);
      expect(more).not.toBeNull();
      return Number(more?.[1]);
    };
    const slack = (slackDigestMessage(many).blocks[1] as { text: { text: string } }).text.text;
    expect(slack.length).toBeLessThanOrEqual(3000);
    expect(slack.split('\n').length - 1 + counted(slack)).toBe(60);
    const discord = discordDigestMessage(many).content as string;
    expect(discord.length).toBeLessThanOrEqual(2000);
    expect(discord.split('\n').length - 2 + counted(discord)).toBe(60);
    const ntfy = ntfyDigestMessage(many);
    expect(Buffer.byteLength(ntfy.body)).toBeLessThanOrEqual(4000);
    expect(ntfy.body.split('\n').length - 1 + counted(ntfy.body)).toBe(60);
    expect(ntfy.headers.Title).toMatch(/^Digest: 60 events from /);
    const telegram = telegramDigestText(many);
    const visible = telegram
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    expect(visible.length).toBeLessThanOrEqual(4096);
    expect(telegram).toMatch(/^<b>Digest: 60 events from [^<]+<\/b>\nWatch 1 &lt;é&gt; /);
    expect(telegram.split('\n').length - 2 + counted(telegram)).toBe(60);
  });
});
