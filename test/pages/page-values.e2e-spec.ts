import type { ServerResponse } from 'node:http';
import { expectDetail } from '../support/errors';
import { PageServer } from '../support/page-server';
import { createPublicTask } from '../sharing/sharing-fixtures';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  startTaskHarness,
  type ExecutionBody,
  type TaskBody,
  type TaskHarness,
} from '../tasks/task-api';

const jsonLd = (value: unknown) =>
  `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

/** A product page whose JSON-LD states its offers in an `@graph`. */
function productPage(prices: number[], availability = 'https://schema.org/InStock'): string {
  return `<html><head><title>Kettle</title>${jsonLd({
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'WebSite', name: 'Shop' },
      {
        '@type': 'Product',
        name: 'Kettle',
        offers: prices.map((price) => ({ '@type': 'Offer', price, availability })),
      },
    ],
  })}</head><body><h1>Kettle</h1><p>A fine kettle.</p></body></html>`;
}

/** A page the test changes between checks. */
function editable(server: PageServer, path: string, page: { body: string; type: string }) {
  return server.page(path, (_request, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
}

describe('Page monitors: values read from pages and rules on them', () => {
  let harness: TaskHarness;
  let server: PageServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    server = await new PageServer().start();
    receiver = await new WebhookReceiver().start();
    harness = await startTaskHarness();
  });
  afterAll(async () => {
    await harness.close();
    await receiver.stop();
    await server.stop();
  });

  function create(body: Record<string, unknown>) {
    return harness.testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', harness.owner.auth)
      .send({ state: 'paused', ...body });
  }

  async function run(taskId: string): Promise<ExecutionBody> {
    const pending = await harness.api.execute(harness.owner, taskId);
    return harness.api.waitForExecution(harness.owner, taskId, pending.id);
  }

  describe('validation', () => {
    const url = 'http://127.0.0.1:9/p';
    it.each([
      [
        [
          {
            url,
            values: [
              { name: 'price', from: 'price' },
              { name: 'v', from: 'json' },
            ],
          },
        ],
        'Invalid pages: pages[0].values[1].path is required with from json',
      ],
      [
        [{ url, values: [{ name: 'Price', from: 'price' }] }],
        'Invalid pages: pages[0].values[0].name must match ^[a-z][a-z0-9_]{0,39}$',
      ],
      [
        [{ url, values: [{ name: 'price', from: 'cost' }] }],
        'Invalid pages: pages[0].values[0].from must be one of number, text, price, availability, json',
      ],
      [
        [{ url, values: [{ name: 'title', from: 'text' }] }],
        'Invalid pages: pages[0].values[0].selector is required with from text',
      ],
      [
        [{ url, values: [{ name: 'v', from: 'json', path: '$.a', selector: 'p' }] }],
        'Invalid pages: pages[0].values[0].selector is not allowed with from json',
      ],
      [
        [{ url, values: [{ name: 'v', from: 'json', path: `$.${'a'.repeat(200)}` }] }],
        'Invalid pages: pages[0].values[0].path must be a JSONPath of 1 to 200 characters',
      ],
      [
        [{ url, values: [{ name: 'v', from: 'number', selector: 'p:has(a)' }] }],
        'Invalid pages: pages[0].values[0].selector: ',
      ],
      [
        [
          { url, values: [{ name: 'price', from: 'price' }] },
          { url: `${url}2`, values: [{ name: 'price', from: 'number', selector: '.p' }] },
        ],
        "Invalid pages: pages[1].values[0].name price is used twice; names are unique across the task's pages",
      ],
      [
        [
          { url, values: Array.from({ length: 6 }, (_, i) => ({ name: `a${i}`, from: 'price' })) },
          {
            url: `${url}2`,
            values: Array.from({ length: 5 }, (_, i) => ({ name: `b${i}`, from: 'price' })),
          },
        ],
        "Invalid pages: a task's pages may declare at most 10 values in all",
      ],
    ])('should refuse pages %j', async (pages, detail) => {
      const response = await create({ pages });
      expect(response.status).toBe(400);
      expect((response.body as { detail: string }).detail.startsWith(detail)).toBe(true);
    });

    it('should refuse a JSONPath its parser cannot read', async () => {
      const response = await create({
        pages: [{ url, values: [{ name: 'v', from: 'json', path: '$.a[' }] }],
      });
      expect(response.status).toBe(400);
      expect((response.body as { detail: string }).detail).toMatch(
        /^Invalid pages: pages\[0\]\.values\[0\]\.path is not an RFC 9535 JSONPath: /,
      );
    });

    it('should refuse values with an output_schema, and allow on_change with page values', async () => {
      expectDetail(
        await create({
          pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
          output_schema: { type: 'object', properties: { price: { type: 'number' } } },
        }),
        400,
        'Invalid pages: values cannot be combined with output_schema',
      );
      const task = (
        await create({
          pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
          notify_behavior: 'on_change',
          page_rule: { type: 'below', value: 'price', than: 100 },
        }).expect(200)
      ).body as TaskBody;
      expect(task.pages).toEqual([{ url, values: [{ name: 'price', from: 'price' }] }]);
      expect(task.page_rule).toEqual({ type: 'below', value: 'price', than: 100 });
    });

    it.each([
      [
        { type: 'below', value: 'cost', than: 1 },
        "Invalid page_rule: value cost is not one of the values the task's pages declare",
      ],
      [{ type: 'above', value: 'price' }, 'Invalid page_rule: than is required with type above'],
      [
        { type: 'below', value: 'price', than: '5' },
        'Invalid page_rule: than must be a finite number',
      ],
      [{ type: 'equals', value: 'price' }, 'Invalid page_rule: to is required with type equals'],
      [
        { type: 'equals', value: 'price', to: [1] },
        'Invalid page_rule: to must be a string, a number or a boolean',
      ],
    ])('should refuse the rule %j', async (rule, detail) => {
      expectDetail(
        await create({
          pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
          page_rule: rule,
        }),
        400,
        detail,
      );
    });
  });

  it('should judge a price below a figure on the first check, and again as it moves', async () => {
    const page = { body: productPage([120, 89.99]), type: 'text/html; charset=utf-8' };
    const url = editable(server, '/kettle', page);
    const task = (
      await create({
        pages: [
          {
            url,
            values: [
              { name: 'price', from: 'price' },
              { name: 'stock', from: 'availability' },
            ],
          },
        ],
        page_rule: { type: 'below', value: 'price', than: 100 },
      }).expect(200)
    ).body as TaskBody;

    const first = await run(task.id);
    expect(first).toMatchObject({
      status: 'success',
      condition_met: true,
      answer: `price is 89.99, below 100 (${url})`,
      reasoning: `price was read from JSON-LD offers.price at ${url}.`,
      usage: null,
      values: { price: 89.99, stock: 'in_stock' },
      changes: [],
      page_results: [
        {
          url,
          status: 'new',
          values: { price: 89.99, stock: 'in_stock' },
          value_errors: {},
        },
      ],
    });
    expect(first.result).toMatchObject({
      current_state: { rule: 'below', met: true, values: { price: 89.99 } },
    });

    // Only the JSON-LD changes: the page is changed with no line added or removed.
    page.body = productPage([120, 79]);
    const second = await run(task.id);
    expect(second).toMatchObject({
      condition_met: true,
      values: { price: 79, stock: 'in_stock' },
      changes: [{ field: 'price', before: 89.99, after: 79 }],
      page_results: [{ status: 'changed', added: [], removed: [] }],
    });

    page.body = productPage([150]);
    expect(await run(task.id)).toMatchObject({
      condition_met: false,
      answer: `price is 150, not below 100 (${url})`,
    });
  });

  it('should send values_changed for a JSON API without a model, after a baseline', async () => {
    const api = {
      body: JSON.stringify({ data: { version: '2.0', downloads: 10 } }),
      type: 'application/json',
    };
    const url = editable(server, '/api/release', api);
    const path = '/hooks/values';
    const task = (
      await create({
        pages: [{ url, values: [{ name: 'version', from: 'json', path: '$.data.version' }] }],
        notify_behavior: 'on_change',
        notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
      }).expect(200)
    ).body as TaskBody;

    const first = await run(task.id);
    expect(first).toMatchObject({
      status: 'success',
      condition_met: false,
      usage: null,
      values: { version: '2.0' },
      changes: [],
    });
    // Another field moves: the page changed, the value did not.
    api.body = JSON.stringify({ data: { version: '2.0', downloads: 11 } });
    expect(await run(task.id)).toMatchObject({
      changes: [],
      page_results: [{ status: 'changed' }],
    });
    expect(receiver.requestsTo(path)).toHaveLength(0);

    api.body = JSON.stringify({ data: { version: '2.1', downloads: 11 } });
    const third = await run(task.id);
    expect(third).toMatchObject({
      values: { version: '2.1' },
      changes: [{ field: 'version', before: '2.0', after: '2.1' }],
    });
    const [hook] = await waitFor(
      async () => {
        const requests = receiver.requestsTo(path);
        return requests.length > 0 ? requests : undefined;
      },
      { what: 'the values_changed webhook' },
    );
    const body = JSON.parse(hook.body) as {
      type: string;
      data: { execution: Record<string, unknown> };
    };
    expect(body.type).toBe('task.values_changed');
    expect(body.data.execution).toMatchObject({
      values: { version: '2.1' },
      changes: [{ field: 'version', before: '2.0', after: '2.1' }],
      page_results: [{ url, values: { version: '2.1' }, value_errors: {} }],
    });
  });

  it('should read prices as each locale writes them, from microdata, meta tags and selectors', async () => {
    const html = (body: string, head = '') =>
      `<html><head>${head}</head><body><h1>Item</h1>${body}</body></html>`;
    const pages = [
      server.fixed('/de', 200, 'text/html', html('<p class="preis">1.299,00 €</p>')),
      server.fixed('/fr', 200, 'text/html', html('<p class="prix">1\u202F299,50\u00A0€</p>')),
      server.fixed('/ch', 200, 'text/html', html('<p class="p">CHF 1\'234.90</p>')),
      server.fixed(
        '/micro',
        200,
        'text/html',
        html('<div itemscope><span itemprop="price" content="45.00">45,00 €</span></div>'),
      ),
      server.fixed(
        '/meta',
        200,
        'text/html',
        html('<p>Shirt</p>', '<meta property="og:price:amount" content="19.99">'),
      ),
    ];
    const task = (
      await create({
        pages: [
          { url: pages[0], values: [{ name: 'de', from: 'price', selector: '.preis' }] },
          { url: pages[1], values: [{ name: 'fr', from: 'number', selector: '.prix' }] },
          { url: pages[2], values: [{ name: 'ch', from: 'price', selector: '.p' }] },
          { url: pages[3], values: [{ name: 'micro', from: 'price' }] },
          {
            url: pages[4],
            values: [
              { name: 'meta', from: 'price' },
              { name: 'gone', from: 'text', selector: '.nope' },
            ],
          },
        ],
        page_rule: { type: 'equals', value: 'micro', to: 45 },
      }).expect(200)
    ).body as TaskBody;
    const execution = await run(task.id);
    expect(execution).toMatchObject({
      status: 'success',
      condition_met: true,
      values: { de: 1299, fr: 1299.5, ch: 1234.9, micro: 45, meta: 19.99, gone: null },
      reasoning: `micro was read from microdata at ${pages[3]}.`,
    });
    expect((execution.page_results as Array<Record<string, unknown>>)[4]).toMatchObject({
      values: { meta: 19.99, gone: null },
      value_errors: { gone: 'not found' },
    });
  });

  it('should keep the values of the last good fetch when a page answers 304', async () => {
    const path = '/etagged';
    const url = server.page(path, (request, response: ServerResponse) => {
      if (request.headers['if-none-match'] === '"v1"') {
        response.writeHead(304, { etag: '"v1"' }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(productPage([42]));
    });
    const task = (
      await create({
        pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
        page_rule: { type: 'equals', value: 'price', to: 42 },
      }).expect(200)
    ).body as TaskBody;
    expect(await run(task.id)).toMatchObject({ condition_met: true, values: { price: 42 } });
    const again = await run(task.id);
    expect(again).toMatchObject({
      condition_met: true,
      values: { price: 42 },
      changes: [],
      page_results: [{ status: 'same', http_status: 304, values: { price: 42 } }],
    });
    expect(server.requestsTo(path)[1].headers['if-none-match']).toBe('"v1"');
  });

  it('should show a model the values as data, keep them as the execution values, and preview them', async () => {
    const url = server.fixed('/lamp', 200, 'text/html', productPage([30]));
    const query = 'Is the lamp cheap enough?';
    harness.provider.script(
      query,
      harness.gemini.checkReply({ conditionMet: true, answer: 'Cheap', nextCheckAt: null }),
      harness.gemini.checkReply({ conditionMet: true, answer: 'Cheap', nextCheckAt: null }),
    );
    const pages = [{ url, values: [{ name: 'price', from: 'price' }] }];
    const task = (await create({ search_query: query, pages }).expect(200)).body as TaskBody;
    const execution = await run(task.id);
    expect(execution).toMatchObject({
      status: 'success',
      answer: 'Cheap',
      values: { price: 30 },
      changes: [],
    });
    const prompt = harness.gemini.requests.find((request) => request.promptText.includes(query));
    expect(prompt?.promptText).toContain('"values": {\n      "price": 30\n    }');

    const preview = await harness.testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', harness.owner.auth)
      .send({ search_query: query, pages })
      .expect(200);
    expect(preview.body).toMatchObject({
      values: { price: 30 },
      page_results: [{ url, status: 'new', values: { price: 30 }, value_errors: {} }],
    });
  });

  it('should take values and rules on values over MCP', async () => {
    const client = await connectMcp(harness.testApp, harness.owner.auth);
    try {
      const url = 'http://127.0.0.1:9/mcp';
      const created = await callTool(client, 'create_task', {
        state: 'paused',
        pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
        page_rule: { type: 'below', value: 'price', than: 10 },
      });
      expect(created.structuredContent).toMatchObject({
        pages: [{ url, values: [{ name: 'price', from: 'price' }] }],
        page_rule: { type: 'below', value: 'price', than: 10 },
      });
      const refused = await callTool(client, 'create_task', {
        state: 'paused',
        pages: [{ url, values: [{ name: 'price', from: 'json' }] }],
      });
      expect(textOf(refused)).toBe(
        'Invalid pages: pages[0].values[0].path is required with from json',
      );
    } finally {
      await client.close();
    }
  });

  it('should fail a check that reads no value of a page that was read', async () => {
    const url = server.fixed('/redesigned', 200, 'text/html', '<p>New look</p>');
    const task = (
      await create({
        pages: [{ url, values: [{ name: 'price', from: 'number', selector: '.price' }] }],
        page_rule: { type: 'above', value: 'price', than: 1 },
      }).expect(200)
    ).body as TaskBody;
    expect(await run(task.id)).toMatchObject({
      status: 'failed',
      error_message: 'No value could be read: price: not found',
    });
  });

  it('should show values to non-owners of a public task and copy them into forks', async () => {
    const pages = [
      {
        url: 'http://127.0.0.1:9/public',
        headers: { Cookie: 'session=secret' },
        values: [{ name: 'price', from: 'price' }],
      },
    ];
    const rule = { type: 'below', value: 'price', than: 5 };
    const task = await createPublicTask(harness.testApp, harness.owner, {
      body: { pages, page_rule: rule },
    });
    const publicPages = [{ url: pages[0].url, values: pages[0].values }];
    const seen = await harness.testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', harness.stranger.auth)
      .expect(200);
    expect((seen.body as TaskBody).pages).toEqual(publicPages);
    const fork = await harness.testApp.http
      .post(`/api/v1/tasks/${task.id}/fork`)
      .set('Authorization', harness.stranger.auth)
      .expect(200);
    expect(fork.body).toMatchObject({ pages: publicPages, page_rule: rule });
  });
});
