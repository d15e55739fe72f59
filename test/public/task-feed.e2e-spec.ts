import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expectDetail, expectRateLimited, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { clientIp, createPublicTask, inOneWindow } from '../sharing/sharing-fixtures';

interface FeedItem {
  title: string;
  link: string;
  description: string;
  pubDate: string;
  guid: { '#text': string; '@_isPermaLink': string };
}

interface Feed {
  rss: {
    '@_version': string;
    channel: {
      title: string;
      link: string;
      description: string;
      lastBuildDate: string;
      'atom:link': { '@_href': string; '@_rel': string };
      item?: FeedItem[];
    };
  };
}

const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'item',
});

describe('Task RSS feed', () => {
  let testApp: TestApp;
  let owner: TestUser;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { TRUST_PROXY: '1' } });
    factory = new Factory(testApp);
    owner = await factory.user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function feed(taskId: string, ip = clientIp()) {
    return testApp.http.get(`/tasks/${taskId}/rss`).set('X-Forwarded-For', ip);
  }

  function parse(xml: string): Feed {
    expect(XMLValidator.validate(xml)).toBe(true);
    return parser.parse(xml) as Feed;
  }

  it('should answer RSS 2.0 of the met-condition executions, newest first', async () => {
    const task = await createPublicTask(testApp, owner, {
      body: { name: 'GPU prices', search_query: 'Is the RTX 5090 below 1500 EUR?' },
    });
    const base = Date.now() - 3_600_000;
    const older = await factory.execution(task, {
      conditionMet: true,
      answer: 'Yes, 1499 EUR at one shop.',
      reasoning: 'A listing shows 1499 EUR.',
      groundingSources: [{ uri: 'https://shop.example/rtx', title: 'Shop listing' }],
      createdAt: new Date(base),
    });
    const newer = await factory.execution(task, {
      conditionMet: true,
      answer: 'Yes, now 1399 EUR.',
      createdAt: new Date(base + 60_000),
    });
    await factory.execution(task, {
      conditionMet: false,
      answer: 'Not yet.',
      createdAt: new Date(base + 120_000),
    });
    await factory.execution(task, {
      status: 'failed',
      errorMessage: 'provider down',
      createdAt: new Date(base + 180_000),
    });

    const response = await feed(task.id);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const document = parse(response.text);
    expect(document.rss['@_version']).toBe('2.0');
    const channel = document.rss.channel;
    expect(channel.title).toBe('GPU prices');
    expect(channel.link).toMatch(new RegExp(`^http://[^/]+/api/v1/public/tasks/id/${task.id}$`));
    expect(channel.description).toContain('Is the RTX 5090 below 1500 EUR?');
    expect(channel['atom:link']).toMatchObject({
      '@_href': expect.stringMatching(new RegExp(`/tasks/${task.id}/rss$`)),
      '@_rel': 'self',
    });
    expect(channel.lastBuildDate).toMatch(RFC_822);

    const items = channel.item ?? [];
    expect(items.map((item) => item.guid['#text'])).toEqual([newer, older]);
    const [, first] = items;
    expect(first).toEqual({
      title: 'GPU prices: condition met',
      link: channel.link,
      description: expect.stringContaining('Yes, 1499 EUR at one shop.'),
      pubDate: new Date(base + 1000).toUTCString(),
      guid: { '#text': older, '@_isPermaLink': 'false' },
    });
    expect(first.description).toContain('Reasoning: A listing shows 1499 EUR.');
    expect(first.description).toContain('https://shop.example/rtx');
    for (const item of items) expect(item.pubDate).toMatch(RFC_822);
    expect(response.text).not.toContain('provider down');
  });

  it('should escape hostile text so the document stays valid and says exactly what was stored', async () => {
    const hostileName = 'Tom & Jerry <b>bold</b> ]]> "quoted"';
    const hostileAnswer =
      'Done ]]> <script>alert("x")</script> & <![CDATA[ nope ]]> \'apos\' &amp;';
    const task = await createPublicTask(testApp, owner, { body: { name: hostileName } });
    await factory.execution(task, {
      conditionMet: true,
      answer: `${hostileAnswer}\u0001\u0008`,
      reasoning: '</description></item><item><title>injected</title>',
    });
    const response = await feed(task.id).expect(200);
    expect(response.text).not.toContain('<script>');
    expect(response.text).not.toContain('<title>injected</title>');
    const channel = parse(response.text).rss.channel;
    expect(channel.title).toBe(hostileName);
    expect(channel.item).toHaveLength(1);
    const [item] = channel.item ?? [];
    expect(item.title).toBe(`${hostileName}: condition met`);
    expect(item.description).toBe(
      `${hostileAnswer}\n\nReasoning: </description></item><item><title>injected</title>`,
    );
  });

  it('should hold at most 50 items', async () => {
    const task = await createPublicTask(testApp, owner);
    const base = Date.now() - 10 * 3_600_000;
    const ids: string[] = [];
    for (let index = 0; index < 55; index += 1) {
      ids.push(
        await factory.execution(task, {
          conditionMet: true,
          answer: `hit ${index}`,
          createdAt: new Date(base + index * 60_000),
        }),
      );
    }
    const items = parse((await feed(task.id).expect(200)).text).rss.channel.item ?? [];
    expect(items).toHaveLength(50);
    expect(items.map((item) => item.guid['#text'])).toEqual(ids.slice(5).reverse());
  });

  it('should answer a valid feed without items for a public task with no met condition', async () => {
    const task = await createPublicTask(testApp, owner, { body: { name: 'Quiet' } });
    const channel = parse((await feed(task.id).expect(200)).text).rss.channel;
    expect(channel.title).toBe('Quiet');
    expect(channel.item).toBeUndefined();
  });

  it('should answer 404 with a JSON detail for a private or unknown task, and 422 for a non-UUID', async () => {
    const privateTask = await factory.task(owner);
    await factory.execution(privateTask, { conditionMet: true, answer: 'secret' });
    for (const id of [privateTask.id, randomUUID()]) {
      const response = await feed(id);
      expectDetail(response, 404, 'Task not found');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
    expectValidationError(await feed('not-a-uuid'), [
      { type: 'uuid_parsing', loc: ['path', 'id'] },
    ]);
  });

  it('should start every link with PUBLIC_URL whatever the Host and X-Forwarded-* headers say', async () => {
    const task = await createPublicTask(testApp, owner);
    const response = await feed(task.id)
      .set('Host', 'attacker.example')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'feeds.attacker.example')
      .expect(200);
    const channel = parse(response.text).rss.channel;
    // PUBLIC_URL is unset: http://localhost:<PORT>, the configured port (3000 by default).
    expect(channel.link).toBe(`http://localhost:3000/api/v1/public/tasks/id/${task.id}`);
    expect(channel['atom:link']['@_href']).toBe(`http://localhost:3000/tasks/${task.id}/rss`);
    expect(response.text).not.toContain('attacker.example');
  });

  it('should use the configured PUBLIC_URL, path included, for every link of the feed', async () => {
    const other = await startTestApp({
      databaseUrl: testApp.databaseUrl,
      jwks: testApp.jwks,
      env: { TRUST_PROXY: '1', PUBLIC_URL: 'https://monitor.example.com/watch/' },
    });
    try {
      const task = await createPublicTask(testApp, owner);
      await factory.execution(task, { conditionMet: true, answer: 'Met.' });
      const response = await other.http
        .get(`/tasks/${task.id}/rss`)
        .set('Host', 'attacker.example')
        .set('X-Forwarded-Host', 'feeds.attacker.example')
        .set('X-Forwarded-For', clientIp())
        .expect(200);
      const channel = parse(response.text).rss.channel;
      const taskLink = `https://monitor.example.com/watch/api/v1/public/tasks/id/${task.id}`;
      expect(channel.link).toBe(taskLink);
      expect(channel['atom:link']['@_href']).toBe(
        `https://monitor.example.com/watch/tasks/${task.id}/rss`,
      );
      expect(channel.item?.map((item) => item.link)).toEqual([taskLink]);
      expect(response.text).not.toContain('attacker.example');
    } finally {
      await other.close();
    }
  });

  it('should answer the 11th request of a minute from one client with 429', async () => {
    await inOneWindow(testApp, async () => {
      const task = await createPublicTask(testApp, owner);
      const ip = clientIp();
      for (let index = 0; index < 10; index += 1) await feed(task.id, ip).expect(200);
      expectRateLimited(await feed(task.id, ip));
    });
  });
});
