import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { ROOMY_RATE_LIMITS, TaskApi, uniqueQuery } from '../tasks/task-api';

/**
 * 4.5 MB of one JSON object with 280,000 keys out of order: sorting and writing them takes a
 * reading thread about a second, several times the budget below.
 */
const WIDE_JSON = `{${Array.from({ length: 280_000 }, (_, n) => `"k${(n * 7_919) % 280_000}":${n}`).join(',')}}`;
/** The budget of each page's reading in this file. */
const READ_CPU_MS = '250';

describe('Reading pages off the event loop, within PAGE_READ_CPU_MS', () => {
  let testApp: TestApp;
  let server: PageServer;
  let owner: TestUser;
  let api: TaskApi;
  let wideUrl: string;

  beforeAll(async () => {
    server = await new PageServer().start();
    testApp = await startTestApp({ env: { ...ROOMY_RATE_LIMITS, PAGE_READ_CPU_MS: READ_CPU_MS } });
    owner = await new Factory(testApp).user();
    api = new TaskApi(testApp);
    wideUrl = server.fixed('/wide.json', 200, 'application/json', WIDE_JSON);
  });
  afterAll(async () => {
    await testApp.close();
    await server.stop();
  });

  /**
   * Runs `work` while asking `GET /health` again and again, each answer awaited for 10 s at
   * most: the service answers at all while pages are read, not how fast.
   */
  async function whileAskingHealth<T>(work: Promise<T>): Promise<{ result: T; answers: number }> {
    let running = true;
    let answers = 0;
    const asking = async () => {
      while (running) {
        await testApp.http.get('/health').timeout(10_000).expect(200);
        answers += 1;
      }
    };
    const [result] = await Promise.all([work.finally(() => (running = false)), asking()]);
    return { result, answers };
  }

  it('should end a page far over the budget as too complex in a check, keep the other pages, and answer /health meanwhile', async () => {
    const shop = server.fixed('/shop', 200, 'text/html', '<title>Shop</title><p>Release 2.0</p>');
    const notes = server.fixed('/notes.txt', 200, 'text/plain', 'Release notes');
    const task = await new Factory(testApp).task(owner, {
      search_query: uniqueQuery('hostile pages'),
      pages: [{ url: shop }, { url: wideUrl }, { url: notes }],
      page_rule: { type: 'contains', text: 'release' },
    });

    const pending = await api.execute(owner, task.id);
    const { result: execution, answers } = await whileAskingHealth(
      api.waitForExecution(owner, task.id, pending.id),
    );

    expect(answers).toBeGreaterThan(0);
    expect(execution).toMatchObject({
      status: 'success',
      claimed_met: true,
      page_results: [
        { url: shop, status: 'new', title: 'Shop', error: null },
        { url: wideUrl, status: 'error', http_status: 200, title: null, error: 'too complex' },
        { url: notes, status: 'new', error: null },
      ],
    });
  });

  it('should read a preview’s pages on the same threads, within the same budget', async () => {
    const preview = testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', owner.auth)
      .send({ pages: [{ url: wideUrl }] })
      .then((response) => response);
    const { result: response, answers } = await whileAskingHealth(preview);

    expect(answers).toBeGreaterThan(0);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      condition_met: false,
      answer: `All pages failed: ${wideUrl}: too complex`,
      page_results: [{ url: wideUrl, status: 'error', error: 'too complex' }],
    });
  });
});
