import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { parseExposition, sampleValue } from '../support/prometheus-text';
import { startTestApp, type TestApp } from '../support/test-app';
import { ROOMY_RATE_LIMITS, TaskApi, uniqueQuery, type TaskBody } from '../tasks/task-api';

const METRICS_TOKEN = 'metrics-token-for-browser-pages';

/**
 * docs/pages.md, "Pages that need a browser": a task's browser page is read by Debian's Chromium,
 * its result says so, its values and items are read as an HTML page's are, and its last
 * screenshot is served to its owner.
 */
describe('Browser pages of a task', () => {
  let testApp: TestApp;
  let server: PageServer;
  let owner: TestUser;
  let stranger: TestUser;
  let api: TaskApi;

  beforeAll(async () => {
    server = await new PageServer().start();
    testApp = await startTestApp({
      env: {
        ...ROOMY_RATE_LIMITS,
        METRICS_TOKEN,
        CHROMIUM_PATH: '/usr/bin/chromium-headless-shell',
      },
    });
    const factory = new Factory(testApp);
    owner = await factory.user();
    stranger = await factory.user();
    api = new TaskApi(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
    await server?.stop();
  });

  it('should read a page a script draws, and serve its last screenshot to its owner only', async () => {
    const drawn = server.fixed(
      '/app',
      200,
      'text/html',
      '<div id="app"></div><script>document.getElementById("app").textContent = "Drawn";</script>',
    );
    const plain = server.fixed('/plain', 200, 'text/html', '<p>Plain</p>');
    const task = (
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: uniqueQuery('browser pages'),
          state: 'paused',
          pages: [{ url: plain }, { url: drawn, render: 'browser', wait_for: '#app' }],
          page_rule: { type: 'contains', text: 'Drawn' },
        })
        .expect(200)
    ).body as TaskBody;
    const screenshot = (index: number, user = owner) =>
      testApp.http
        .get(`/api/v1/tasks/${task.id}/pages/${index}/screenshot`)
        .set('Authorization', user.auth);

    expectDetail(await screenshot(1), 404, 'Screenshot not found');
    const pending = await api.execute(owner, task.id);
    const done = await api.waitForExecution(owner, task.id, pending.id);
    expect(done.status).toBe('success');
    expect(done.claimed_met).toBe(true);
    expect(done.page_results).toMatchObject([
      { url: plain, render: 'http', status: 'new' },
      { url: drawn, render: 'browser', status: 'new', http_status: 200 },
    ]);

    const png = await screenshot(1).buffer(true).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((png.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    expectDetail(await screenshot(0), 404, 'Screenshot not found');
    expectDetail(await screenshot(2), 404, 'Screenshot not found');
    expectDetail(await screenshot(1, stranger), 404, 'Task not found');

    // Read over HTTP from now on, the page shows no screenshot of when it was read in a browser.
    await testApp.http
      .put(`/api/v1/tasks/${task.id}`)
      .set('Authorization', owner.auth)
      .send({ pages: [{ url: plain }, { url: drawn }] })
      .expect(200);
    expectDetail(await screenshot(1), 404, 'Screenshot not found');

    const metrics = await testApp.http
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    const families = parseExposition(metrics.text);
    const fetches = (render: string) =>
      sampleValue(families, 'monitor_page_fetches_total', { status: 'new', render });
    expect([fetches('http'), fetches('browser')]).toEqual([1, 1]);
    expect(sampleValue(families, 'monitor_browser_pages_in_flight')).toBe(0);
  }, 60_000);

  it('should read the values and the new items of a page a script draws', async () => {
    const drawn = (jobs: string[], price: string) =>
      server.fixed(
        '/jobs',
        200,
        'text/html',
        '<ul id="jobs"></ul><p class="price"></p><script>' +
          `for (const job of ${JSON.stringify(jobs)}) {` +
          ' const item = document.createElement("li"); item.textContent = job;' +
          ' document.getElementById("jobs").append(item); }' +
          `document.querySelector(".price").textContent = ${JSON.stringify(price)};</script>`,
      );
    const url = drawn(['Job 1'], '30 €');
    const task = (
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: uniqueQuery('browser lists'),
          state: 'paused',
          pages: [
            {
              url,
              render: 'browser',
              wait_for: '#jobs li',
              items: { selector: '#jobs li' },
              values: [{ name: 'price', from: 'number', selector: '.price' }],
            },
          ],
          page_rule: { type: 'new_items' },
        })
        .expect(200)
    ).body as TaskBody;
    const check = async () => {
      const pending = await api.execute(owner, task.id);
      return api.waitForExecution(owner, task.id, pending.id);
    };

    expect(await check()).toMatchObject({
      status: 'success',
      claimed_met: false,
      values: { price: 30 },
      page_results: [
        { url, render: 'browser', status: 'new', new_items: [], values: { price: 30 } },
      ],
    });
    drawn(['Job 1', 'Job 2'], '25 €');
    expect(await check()).toMatchObject({
      status: 'success',
      claimed_met: true,
      values: { price: 25 },
      page_results: [
        {
          url,
          render: 'browser',
          status: 'changed',
          new_items: [{ title: 'Job 2', url: null }],
          values: { price: 25 },
        },
      ],
    });
  }, 60_000);

  it('should read the browser pages of a preview the same way', async () => {
    const url = server.fixed('/down', 503, 'text/html', '<p>Down for maintenance</p>');
    const preview = await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', owner.auth)
      .send({ search_query: 'Is it back?', pages: [{ url, render: 'browser' }] })
      .expect(200);
    expect(preview.body).toMatchObject({
      condition_met: false,
      page_results: [
        { url, render: 'browser', status: 'error', http_status: 503, error: 'HTTP 503' },
      ],
    });
  }, 60_000);
});

describe('Browser pages without a browser', () => {
  let testApp: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { CHROMIUM_PATH: '/nonexistent/chromium', WORKER_ENABLED: 'false' },
    });
    owner = await new Factory(testApp).user();
  });
  afterAll(() => testApp.close());

  it('should refuse a browser page when it is saved', async () => {
    expectDetail(
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: 'Is it drawn?',
          state: 'paused',
          pages: [
            { url: 'http://127.0.0.1:9/' },
            { url: 'http://127.0.0.1:9/app', render: 'browser' },
          ],
        }),
      400,
      'Invalid pages: pages[1].render: no browser is configured (set BROWSER_WS_ENDPOINT or CHROMIUM_PATH)',
    );
  });
});
