import { createHash, randomUUID } from 'node:crypto';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { callTool, connectMcp } from '../mcp/mcp-client';
import { createPublicTask } from '../sharing/sharing-fixtures';
import {
  ROOMY_RATE_LIMITS,
  startTaskHarness,
  TaskApi,
  uniqueQuery,
  type TaskHarness,
} from '../tasks/task-api';

interface Entry {
  id: string;
  title: string;
  link: string;
}

interface PageResultBody {
  url: string;
  status: string;
  error: string | null;
  added: string[];
  removed: string[];
  new_items: Array<{ title: string; url: string | null }> | null;
}

interface RunBody {
  id: string;
  status: string;
  result: {
    condition_met: boolean;
    answer: string;
    reasoning: string;
    current_state: unknown;
  } | null;
  page_results: PageResultBody[];
}

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The same entries in each format a feed or a list comes in, with its content type. */
const FORMATS: Record<string, { type: string; write: (entries: Entry[]) => string }> = {
  rss: {
    type: 'application/rss+xml; charset=utf-8',
    write: (entries) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>${entries
        .map(
          (entry) =>
            `<item><title>${escape(entry.title)}</title><link>${entry.link}</link><guid>${entry.id}</guid></item>`,
        )
        .join('')}</channel></rss>`,
  },
  rdf: {
    type: 'text/xml',
    write: (entries) =>
      `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel rdf:about="/"><title>News</title><link>/</link></channel>${entries
        .map(
          (entry) =>
            `<item rdf:about="${entry.link}"><title>${escape(entry.title)}</title><link>${entry.link}</link></item>`,
        )
        .join('')}</rdf:RDF>`,
  },
  atom: {
    type: 'application/atom+xml',
    write: (entries) =>
      `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>${entries
        .map(
          (entry) =>
            `<entry><title>${escape(entry.title)}</title><id>${entry.id}</id><link rel="alternate" href="${entry.link}"/></entry>`,
        )
        .join('')}</feed>`,
  },
  json: {
    type: 'application/feed+json',
    write: (entries) =>
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'News',
        items: entries.map((entry) => ({ id: entry.id, title: entry.title, url: entry.link })),
      }),
  },
  html: {
    type: 'text/html; charset=utf-8',
    write: (entries) =>
      `<title>News</title><ul>${entries
        .map((entry) => `<li class="post"><a href="${entry.link}">${escape(entry.title)}</a></li>`)
        .join('')}</ul>`,
  },
};

function entry(n: number): Entry {
  return { id: `post-${n}`, title: `Post ${n}`, link: `https://news.example/posts/${n}` };
}

function entries(from: number, to: number): Entry[] {
  const list: Entry[] = [];
  for (let n = to; n >= from; n--) list.push(entry(n));
  return list;
}

describe('Page monitors: new items in lists and feeds', () => {
  let testApp: TestApp;
  let server: PageServer;
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let api: TaskApi;

  beforeAll(async () => {
    server = await new PageServer().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({ env: ROOMY_RATE_LIMITS });
    owner = await new Factory(testApp).user();
    api = new TaskApi(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await server.stop();
    await receiver.stop();
  });

  /** A page serving `format` of the entries the test sets. */
  function feed(format: string, shown: { entries: Entry[] }): string {
    const { type, write } = FORMATS[format];
    return server.page(`/${format}-${randomUUID()}`, (_request, response) => {
      response.writeHead(200, { 'content-type': type }).end(write(shown.entries));
    });
  }

  function create(body: Record<string, unknown>) {
    return testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', owner.auth)
      .send({ search_query: uniqueQuery('new items'), state: 'paused', ...body });
  }

  async function run(taskId: string): Promise<RunBody> {
    const pending = await api.execute(owner, taskId);
    return (await api.waitForExecution(owner, taskId, pending.id)) as unknown as RunBody;
  }

  async function keyRows(taskId: string): Promise<{ count: number; xmins: string }> {
    const { rows } = await testApp.db.query<{ count: number; xmins: string | null }>(
      `SELECT count(*)::int AS count, string_agg(xmin::text, ',' ORDER BY key_hash) AS xmins
       FROM page_item_keys WHERE task_id = $1`,
      [taskId],
    );
    return { count: rows[0].count, xmins: rows[0].xmins ?? '' };
  }

  it.each(Object.keys(FORMATS))(
    'should take the first %s fetch as the baseline and find the items added since',
    async (format) => {
      const shown = { entries: entries(1, 3) };
      const url = feed(format, shown);
      const items = format === 'html' ? { selector: 'li.post' } : {};
      const created = await create({
        pages: [{ url, items }],
        page_rule: { type: 'new_items' },
      }).expect(200);
      const taskId = (created.body as { id: string }).id;

      const baseline = await run(taskId);
      expect(baseline.status).toBe('success');
      expect(baseline.result?.condition_met).toBe(false);
      expect(baseline.page_results).toEqual([
        expect.objectContaining({ status: 'new', new_items: [], added: [], removed: [] }),
      ]);

      shown.entries = [entry(5), entry(4), ...entries(2, 3)];
      const found = await run(taskId);
      expect(found.result).toMatchObject({
        condition_met: true,
        answer: `2 new items on ${url}`,
        reasoning: `${url}: "Post 5", "Post 4".`,
        current_state: {
          rule: 'new_items',
          met: true,
          keys:
            format === 'rss' || format === 'atom' || format === 'json'
              ? ['post-5', 'post-4']
              : [entry(5).link, entry(4).link],
        },
      });
      expect(found.page_results[0]).toMatchObject({
        status: 'changed',
        new_items: [
          { title: 'Post 5', url: entry(5).link },
          { title: 'Post 4', url: entry(4).link },
        ],
        added: [`Post 5 ${entry(5).link}`, `Post 4 ${entry(4).link}`],
        removed: [],
      });

      const again = await run(taskId);
      expect(again.result?.condition_met).toBe(false);
      expect(again.page_results[0]).toMatchObject({ status: 'same', new_items: [] });

      // Items that go away are no change, but the page's text is what it lists now.
      shown.entries = [entry(5), entry(4)];
      const gone = await run(taskId);
      expect(gone.page_results[0]).toMatchObject({ status: 'same', new_items: [], removed: [] });
      const snapshots = await testApp.http
        .get(`/api/v1/tasks/${taskId}/pages`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect((snapshots.body as Array<{ text: string }>)[0].text).toBe(
        `Post 5 ${entry(5).link}\nPost 4 ${entry(4).link}`,
      );
    },
  );

  it('should send a webhook with the new items, and write no key when nothing is new', async () => {
    const shown = { entries: entries(1, 2) };
    const url = feed('rss', shown);
    const path = `/hook-${randomUUID()}`;
    const created = await create({
      pages: [{ url, items: {} }],
      page_rule: { type: 'new_items' },
      notify_behavior: 'always',
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    }).expect(200);
    const taskId = (created.body as { id: string }).id;
    await run(taskId);
    const baselineKeys = await keyRows(taskId);
    expect(baselineKeys.count).toBe(2);

    // Nothing new: the keys are neither rewritten nor added to.
    await run(taskId);
    await run(taskId);
    expect(await keyRows(taskId)).toEqual(baselineKeys);

    shown.entries = [entry(3), ...shown.entries];
    await run(taskId);
    const [hook] = await waitFor(async () => {
      const received = receiver.requestsTo(path);
      return received.length > 0 && received;
    });
    const payload = JSON.parse(hook.body) as {
      data: { execution: { page_results: PageResultBody[] } };
    };
    expect(payload.data.execution.page_results).toEqual([
      expect.objectContaining({
        url,
        status: 'changed',
        new_items: [{ title: 'Post 3', url: entry(3).link }],
      }),
    ]);
    expect((await keyRows(taskId)).count).toBe(3);
  });

  it('should keep the most recent 5,000 keys of a page, forgetting the oldest first', async () => {
    const shown = { entries: entries(1, 5_000) };
    const url = feed('rss', shown);
    const created = await create({
      pages: [{ url, items: {} }],
      page_rule: { type: 'new_items' },
    }).expect(200);
    const taskId = (created.body as { id: string }).id;
    await run(taskId);
    expect((await keyRows(taskId)).count).toBe(5_000);

    shown.entries = entries(4, 5_003);
    const found = await run(taskId);
    expect(found.page_results[0].new_items).toEqual(
      [5_003, 5_002, 5_001].map((n) => ({ title: `Post ${n}`, url: entry(n).link })),
    );
    expect((await keyRows(taskId)).count).toBe(5_000);
    // The oldest of the baseline (last in its feed) went; the newest stayed.
    const { rows } = await testApp.db.query<{ key_hash: string }>(
      'SELECT key_hash FROM page_item_keys WHERE task_id = $1',
      [taskId],
    );
    const hashes = new Set(rows.map((row) => row.key_hash));
    const hash = (key: string) => createHash('sha256').update(key).digest('hex');
    expect([1, 2, 3].map((n) => hashes.has(hash(`post-${n}`)))).toEqual([false, false, false]);
    expect([4, 5_000, 5_003].map((n) => hashes.has(hash(`post-${n}`)))).toEqual([true, true, true]);
  });

  it('should forget a list’s keys when its items change, and keep them when they stay', async () => {
    const url = feed('html', { entries: entries(1, 3) });
    const created = await create({
      pages: [{ url, items: { selector: 'li.post' } }],
      page_rule: { type: 'new_items' },
    }).expect(200);
    const taskId = (created.body as { id: string }).id;
    await run(taskId);
    expect((await keyRows(taskId)).count).toBe(3);
    const put = (pages: unknown) =>
      testApp.http
        .put(`/api/v1/tasks/${taskId}`)
        .set('Authorization', owner.auth)
        .send({ pages })
        .expect(200);
    await put([{ url, items: { selector: 'li.post' } }]);
    expect((await keyRows(taskId)).count).toBe(3);
    await put([{ url, items: { selector: 'ul > li' } }]);
    expect((await keyRows(taskId)).count).toBe(0);
    const baseline = await run(taskId);
    expect(baseline.page_results[0]).toMatchObject({ status: 'same', new_items: [] });
    expect((await keyRows(taskId)).count).toBe(3);
  });

  it('should read an HTML page with items but no selector as not a feed', async () => {
    const url = server.fixed(`/plain-${randomUUID()}`, 200, 'text/html', '<p>Hello</p>');
    const created = await create({
      pages: [{ url, items: {} }],
      page_rule: { type: 'new_items' },
    }).expect(200);
    const failed = await run((created.body as { id: string }).id);
    expect(failed.status).toBe('failed');
    expect(failed.page_results[0]).toMatchObject({ status: 'error', error: 'not a feed' });
  });

  it('should refuse items and the new_items rule that are not as documented', async () => {
    const url = `${server.origin}/any`;
    expectDetail(
      await create({ pages: [{ url, items: { selector: 'li:has(a)' } }] }),
      400,
      'Invalid pages: pages[0].items.selector: :has is not supported; use type, class, id and attribute selectors, combinators, :first-child, :last-child, :nth-child() and :not()',
    );
    expectDetail(
      await create({ pages: [{ url, items: { max: 3 } }] }),
      400,
      'Invalid pages: pages[0].items has an unknown field max',
    );
    expectDetail(
      await create({ pages: [{ url }], page_rule: { type: 'new_items' } }),
      400,
      'Invalid page_rule: type new_items needs a page with items (a feed page may carry items: {})',
    );
    const created = await create({
      pages: [{ url, items: { selector: 'li' } }],
      page_rule: { type: 'new_items' },
    }).expect(200);
    expect((created.body as { pages: unknown }).pages).toEqual([
      { url, items: { selector: 'li' } },
    ]);
  });
});

describe('Page monitors: new items read by a model', () => {
  let harness: TaskHarness;
  let server: PageServer;

  beforeAll(async () => {
    server = await new PageServer().start();
    harness = await startTaskHarness();
  });
  afterAll(async () => {
    await harness.close();
    await server.stop();
  });

  function feed(shown: { entries: Entry[] }): string {
    return server.page(`/feed-${randomUUID()}`, (_request, response) => {
      response
        .writeHead(200, { 'content-type': FORMATS.rss.type })
        .end(FORMATS.rss.write(shown.entries));
    });
  }

  /** What the model was asked about the task's pages, as the prompt's text. */
  function prompts(query: string): string[] {
    return harness.provider.requestsFor(query).map((request) => JSON.stringify(request));
  }

  it('should show the model only the new items, and call none while nothing is new', async () => {
    const query = uniqueQuery('rust jobs');
    const shown = { entries: entries(1, 2) };
    const url = feed(shown);
    harness.provider.script(
      query,
      harness.gemini.checkReply({ conditionMet: false, answer: 'Nothing yet', nextCheckAt: null }),
      harness.gemini.checkReply({ conditionMet: true, answer: 'Post 3 it is', nextCheckAt: null }),
    );
    const task = await harness.api.create(harness.owner, {
      search_query: query,
      state: 'paused',
      pages: [{ url, items: {} }],
    });
    const run = async () => {
      const pending = await harness.api.execute(harness.owner, task.id);
      return harness.api.waitForExecution(harness.owner, task.id, pending.id);
    };
    await run();
    expect(prompts(query)).toHaveLength(1);
    await run();
    expect(prompts(query)).toHaveLength(1);

    shown.entries = [{ ...entry(3), title: 'Rust engineer, Berlin' }, ...shown.entries];
    const found = await run();
    expect(found).toMatchObject({ status: 'success', result: { answer: 'Post 3 it is' } });
    const [, asked] = prompts(query);
    expect(asked).toContain('Rust engineer, Berlin');
    expect(asked).toContain('new_items');
    expect(asked).not.toContain('Post 1');
  });

  it('should show a public task’s items to others and copy them into a fork, headers aside', async () => {
    const url = `${server.origin}/members`;
    const page = { url, items: { selector: 'li' }, headers: { Cookie: 'session=secret' } };
    const task = await createPublicTask(harness.testApp, harness.owner, {
      body: { state: 'paused', pages: [page], page_rule: { type: 'new_items' } },
    });
    const seen = await harness.testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', harness.stranger.auth)
      .expect(200);
    expect((seen.body as { pages: unknown }).pages).toEqual([{ url, items: { selector: 'li' } }]);
    const fork = await harness.testApp.http
      .post(`/api/v1/tasks/${task.id}/fork`)
      .set('Authorization', harness.stranger.auth)
      .send({});
    expect((fork.body as { pages: unknown }).pages).toEqual([{ url, items: { selector: 'li' } }]);
  });

  it('should show others no item keys in the task’s state when its pages have headers', async () => {
    const shown = { entries: entries(1, 1) };
    const url = server.page(`/members-${randomUUID()}`, (_request, response) => {
      response
        .writeHead(200, { 'content-type': FORMATS.html.type })
        .end(FORMATS.html.write(shown.entries));
    });
    const task = await createPublicTask(harness.testApp, harness.owner, {
      body: {
        state: 'paused',
        pages: [{ url, items: { selector: 'li' }, headers: { Cookie: 'session=secret' } }],
        page_rule: { type: 'new_items' },
      },
    });
    for (const next of [entries(1, 1), entries(1, 2)]) {
      shown.entries = next;
      const pending = await harness.api.execute(harness.owner, task.id);
      await harness.api.waitForExecution(harness.owner, task.id, pending.id);
    }
    const state = async (auth: string | null) => {
      const call = harness.testApp.http.get(`/api/v1/tasks/${task.id}`);
      const response = await (auth ? call.set('Authorization', auth) : call).expect(200);
      return (response.body as { last_known_state: unknown }).last_known_state;
    };
    expect(await state(harness.owner.auth)).toEqual({
      rule: 'new_items',
      met: true,
      keys: [entry(2).link],
    });
    for (const auth of [harness.stranger.auth, null]) {
      expect(await state(auth)).toEqual({ rule: 'new_items', met: true, keys: null });
    }
  });

  it('should preview a feed with each item new, over REST and MCP', async () => {
    const url = feed({ entries: entries(1, 2) });
    const response = await harness.testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', harness.owner.auth)
      .send({ pages: [{ url, items: {} }] })
      .expect(200);
    expect((response.body as { page_results: PageResultBody[] }).page_results).toEqual([
      expect.objectContaining({
        status: 'new',
        new_items: [
          { title: 'Post 2', url: entry(2).link },
          { title: 'Post 1', url: entry(1).link },
        ],
      }),
    ]);
    expect(prompts(`Watch ${url}`)[0]).toContain('Post 2');

    const client = await connectMcp(harness.testApp, harness.owner.auth);
    try {
      const preview = await callTool(client, 'preview_task', { pages: [{ url, items: {} }] });
      expect(preview.isError).toBeFalsy();
      expect(preview.structuredContent).toMatchObject({
        page_results: [{ new_items: [{ title: 'Post 2' }, { title: 'Post 1' }] }],
      });
      const refused = await callTool(client, 'create_task', {
        state: 'paused',
        pages: [{ url, items: { selector: 'li:has(a)' } }],
      });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
