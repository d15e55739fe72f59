import { randomUUID } from 'node:crypto';
import type { Browser, Locator } from 'playwright-core';
import type { Factory, TestUser } from '../support/factory';
import type { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { uniqueQuery, type ProviderScript } from '../tasks/task-api';
import { ConsoleTab } from './console-browser';
import { startConsoleStack, type ConsoleStack } from './console-stack';

const PRICE_SCHEMA = {
  type: 'object',
  properties: { price: { type: 'number', description: 'The price in USD' } },
  required: ['price'],
};

const SOURCES = [
  { uri: 'https://news.example/launch', title: 'news.example' },
  { uri: 'https://shop.example/product', title: 'shop.example' },
];

/** The flows of issue 21 in Debian's Chromium against the real service and its stand-ins. */
describe('Console in the browser', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let provider: ProviderScript;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let factory: Factory;
  let owner: TestUser;
  let tab: ConsoleTab;

  let stack: ConsoleStack;

  beforeAll(async () => {
    stack = await startConsoleStack();
    ({ testApp, gemini, provider, receiver, browser, factory } = stack);
    owner = await factory.user({ email: `owner-${randomUUID()}@example.com` });
  });

  afterAll(() => stack?.stop());

  beforeEach(async () => {
    tab = await ConsoleTab.open(browser, testApp.baseUrl);
  });

  afterEach(async () => {
    const errors = tab.takeErrors();
    await tab.close();
    expect(errors).toEqual([]);
  });

  describe('a user at work', () => {
    const query = uniqueQuery('Acme Rocket launch price');
    const prompt = `Tell me when the Acme Rocket ships ${randomUUID()}`;
    const webhookPath = `/hooks/${randomUUID()}`;
    let taskId: string;

    beforeAll(() => {
      provider.script(
        prompt,
        gemini.suggestReply({
          name: 'Acme Rocket launch',
          searchQuery: query,
          conditionDescription: 'The Acme Rocket has a confirmed shipping date',
          notifyBehavior: 'always',
        }),
      );
      provider.script(
        query,
        // The preview, then two executions.
        gemini.checkReply({
          answer: 'Preview: no date yet.',
          values: { price: 9 },
          sources: SOURCES,
        }),
        gemini.checkReply({
          conditionMet: false,
          answer: 'No shipping date has been announced; the price is listed at $10.',
          values: { price: 10 },
          sources: SOURCES,
        }),
        gemini.checkReply({
          conditionMet: true,
          answer: 'Acme announced shipping on 1 March at $12.50.',
          values: { price: 12.5 },
          sources: SOURCES,
        }),
      );
    });

    it('should sign in with an API key and show the empty task list', async () => {
      await tab.goto();
      await tab.page.getByRole('heading', { name: 'Task Monitor' }).waitFor();
      expect(await focusedId(tab)).toBe('api-key');
      await tab.audit('sign-in');
      await tab.signIn(owner.apiKey);
      await tab.page.getByText('No tasks yet.').waitFor();
      expect(await focusedText(tab)).toBe('Tasks');
      await expectNoAdminEntry(tab);
      expect(tab.page.url()).not.toContain(owner.apiKey);
      await tab.audit('tasks-empty');
    });

    it('should create a task with webhook headers from a suggestion after previewing it with its output schema', async () => {
      await tab.signIn(owner.apiKey);
      await tab.page.getByRole('link', { name: 'New task' }).first().click();
      const { page } = tab;
      await page.getByLabel('In your own words').fill(prompt);
      await page.getByRole('button', { name: 'Suggest' }).click();
      expect(await filledValue(page.getByLabel('Name'))).toBe('Acme Rocket launch');
      expect(await page.getByLabel('Search query').inputValue()).toBe(query);
      expect(await page.getByLabel('Notify').inputValue()).toBe('always');

      await page.getByText('Values and evidence').click();
      await page.getByLabel('Output schema (JSON)').fill(JSON.stringify(PRICE_SCHEMA));
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByRole('region', { name: /Preview/ });
      await preview.getByText('Preview: no date yet.').waitFor();
      expect(await preview.getByRole('link', { name: 'news.example' }).getAttribute('href')).toBe(
        'https://news.example/launch',
      );
      expect(await preview.locator('.values').innerText()).toMatch(/price\s+9/);
      expect(provider.requestsFor(query)[0].promptText).toContain('"output_schema"');

      await page.getByLabel('Start').selectOption('paused');
      await page.getByLabel('Webhook').check();
      await page.getByLabel('URL').fill(`${receiver.url}${webhookPath}`);
      await page.getByRole('button', { name: 'Add a header' }).click();
      await page.getByLabel('Header 1 name').fill('X-Team');
      await page.getByLabel('Header 1 value').fill('rockets');
      await page.getByRole('button', { name: 'Add a header' }).click();
      await page.getByLabel('Header 2 name').fill('x-team');
      await page.getByText('This header is already set above').waitFor();
      await page.getByRole('button', { name: 'Remove header 2' }).click();
      await tab.audit('new-task');
      await page.getByRole('button', { name: 'Create task' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme Rocket launch' }).waitFor();
      taskId = page.url().split('#/tasks/')[1];
      const stored = await testApp.http
        .get(`/api/v1/tasks/${taskId}`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(stored.body).toMatchObject({
        name: 'Acme Rocket launch',
        search_query: query,
        state: 'paused',
        notify_behavior: 'always',
        output_schema: PRICE_SCHEMA,
        notifications: [
          expect.objectContaining({ type: 'webhook', headers: { 'X-Team': 'rockets' } }),
        ],
      });
      expect(await focusedText(tab)).toBe('Acme Rocket launch');
    });

    it('should execute the task and show the result with its sources, values, changes and a chart', async () => {
      await tab.signIn(owner.apiKey);
      await tab.goto(`#/tasks/${taskId}`);
      const { page } = tab;
      await page.getByText('No executions yet.').waitFor();
      await page.getByRole('button', { name: 'Execute now' }).click();
      await page
        .getByText('No shipping date has been announced; the price is listed at $10.')
        .waitFor();
      await page.getByText('Execution started.').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Execute now' }).click();
      await page.getByText('Acme announced shipping on 1 March at $12.50.').waitFor();

      const latest = page.locator('.execution').first();
      await latest.getByText('price: 10 → 12.5').waitFor();
      expect(await latest.locator('.values').innerText()).toContain('12.5');
      expect(await latest.getByRole('link', { name: 'shop.example' }).getAttribute('href')).toBe(
        'https://shop.example/product',
      );
      expect(await latest.innerText()).toMatch(/gemini gemini-2\.5-flash: 1200 in, 300 out/);
      expect(await latest.locator('summary').innerText()).toMatch(/^Succeeded\s+\S.*\s+Met$/);
      const details = page.getByRole('region', { name: 'What it watches' });
      expect(await details.innerText()).toMatch(/Notify\s+Whenever the verdict changes/);
      expect(await page.locator('.task-head .badge').innerText()).toBe('Paused');
      const chart = page.getByRole('figure').filter({ hasText: 'price' });
      await chart.getByText('2 runs, latest 12.5', { exact: false }).waitFor();
      expect(await chart.locator('canvas').count()).toBe(1);
      await tab.audit('task');
    });

    it('should send a test to the webhook with its headers and show its result and send record', async () => {
      await tab.signIn(owner.apiKey);
      await tab.goto(`#/tasks/${taskId}`);
      const { page } = tab;
      await page.getByRole('button', { name: 'Send a test' }).click();
      await page.getByRole('status').filter({ hasText: 'Test send: Delivered' }).waitFor();
      const received = receiver.requestsTo(webhookPath);
      const test = received.find(
        (request) => (JSON.parse(request.body) as { type: string }).type === 'task.test',
      );
      expect(test?.headers['x-team']).toBe('rockets');
      const sends = page.getByRole('region', { name: 'Send records' });
      const testSend = sends.getByRole('row').filter({ hasText: 'Test send' });
      await testSend.getByRole('cell', { name: 'Delivered', exact: true }).waitFor();
      expect(await sends.getByRole('cell', { name: 'Webhook' }).count()).toBeGreaterThan(0);
    });

    it('should show the webhook signing secret to its owner and copy it', async () => {
      const stored = await testApp.http
        .get(`/api/v1/tasks/${taskId}`)
        .set('Authorization', owner.auth)
        .expect(200);
      const { secret } = (stored.body as { notifications: Array<{ secret: string }> })
        .notifications[0];
      expect(secret).toMatch(/^whsec_/);
      await tab.signIn(owner.apiKey);
      await tab.goto(`#/tasks/${taskId}`);
      const { page } = tab;
      const shown = page.locator('.secret code');
      await shown.waitFor();
      expect(await shown.innerText()).not.toContain(secret);
      await page.getByRole('button', { name: 'Show signing secret' }).click();
      expect(await shown.innerText()).toBe(secret);
      await page.getByRole('button', { name: 'Hide signing secret' }).waitFor();
      await page.getByRole('button', { name: 'Copy signing secret' }).click();
      await page.locator('.secret').getByRole('status').getByText('Copied.').waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    });

    it("should show the API's detail beside the schema field and save a corrected schema", async () => {
      await tab.signIn(owner.apiKey);
      await tab.goto(`#/tasks/${taskId}/edit`);
      const { page } = tab;
      const schema = page.getByLabel('Output schema (JSON)');
      await schema.waitFor();
      const broken = { type: 'object', properties: { 'Not-A-Name': { type: 'number' } } };
      await schema.fill(JSON.stringify(broken));
      await page.getByRole('button', { name: 'Save changes' }).click();
      const error = page.locator('#task-schema-error');
      await error.waitFor();
      expect(await error.innerText()).toMatch(/^Invalid output_schema: /);
      expect(await schema.getAttribute('aria-describedby')).toContain('task-schema-error');
      expect(await focusedId(tab)).toBe('task-schema');
      await tab.audit('edit-task');
      // The browser logs the refused request itself; nothing else may go wrong.
      expect(tab.takeErrors([/status of 400/])).toEqual([]);

      const corrected = {
        ...PRICE_SCHEMA,
        properties: { ...PRICE_SCHEMA.properties, in_stock: { type: 'boolean' } },
      };
      await schema.fill(JSON.stringify(corrected));
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme Rocket launch' }).waitFor();
      const stored = await testApp.http
        .get(`/api/v1/tasks/${taskId}`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(stored.body.output_schema).toEqual(corrected);
      expect(stored.body.notifications).toEqual([
        expect.objectContaining({
          type: 'webhook',
          secret: expect.any(String),
          headers: { 'X-Team': 'rockets' },
        }),
      ]);
    });

    it('should filter the task table by state', async () => {
      await tab.signIn(owner.apiKey);
      const { page } = tab;
      const table = page.getByRole('region', { name: 'Tasks' });
      await table.getByRole('link', { name: 'Acme Rocket launch' }).waitFor();
      expect(await table.getByRole('row').nth(1).innerText()).toMatch(
        /Paused[\s\S]*Succeeded[\s\S]*Met/,
      );
      await tab.audit('tasks');
      await page.getByLabel('State').focus();
      await page.getByLabel('State').selectOption('completed');
      await page.getByText('No completed tasks.').waitFor();
      // Only the query changed: the focus stays on the filter.
      expect(await focusedId(tab)).toBe('state-filter');
      await page.getByLabel('State').selectOption('paused');
      await table.getByRole('link', { name: 'Acme Rocket launch' }).waitFor();
    });

    it('should show this month against the budget, and another month when one is picked', async () => {
      await tab.signIn(owner.apiKey);
      await tab.goto('#/usage');
      const { page } = tab;
      await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
      const now = new Date();
      await page.getByRole('heading', { level: 2, name: monthName(now) }).waitFor();
      const executions = page.locator('.stat').filter({ hasText: 'Executions' });
      expect(await executions.locator('dd').innerText()).toBe('2');
      await page.getByText('no monthly budget set').waitFor();
      await tab.audit('usage');

      const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
      const month = previous.toISOString().slice(0, 7);
      await page.getByLabel('Month').fill(month);
      await page.getByRole('heading', { level: 2, name: monthName(previous) }).waitFor();
      expect(await executions.locator('dd').innerText()).toBe('0');
      await page.getByText(`Nothing used in ${monthName(previous)}.`).waitFor();
      expect(page.url()).toContain(`#/usage?month=${month}`);
    });

    it('should pause, resume and delete a task after confirmation', async () => {
      const doomed = await factory.task(owner, { name: 'Short-lived watch', state: 'active' });
      await tab.signIn(owner.apiKey);
      await tab.goto(`#/tasks/${doomed.id}`);
      const { page } = tab;
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('Task paused.').waitFor();
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByText('Task resumed.').waitFor();
      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Delete "Short-lived watch"', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(
        await testApp.db.query('SELECT 1 FROM tasks WHERE id = $1', [doomed.id]),
      ).toMatchObject({
        rowCount: 1,
      });
      await page.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Delete task' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
      expect(await focusedText(tab)).toBe('Tasks');
      expect(
        await testApp.db.query('SELECT 1 FROM tasks WHERE id = $1', [doomed.id]),
      ).toMatchObject({
        rowCount: 0,
      });
    });
  });

  it('should render an answer, names and sources from outside as inert text', async () => {
    const user = await factory.user();
    const task = await factory.task(user, { name: '<b id="bold-name">Bold</b> watch' });
    const payload = '<img src=x onerror="window.__consoleXss = 1">';
    await factory.execution(task, {
      answer: `Answer ${payload}`,
      reasoning: '<script>window.__consoleXss = 2</script>',
      conditionMet: true,
      groundingSources: [
        { uri: 'javascript:window.__consoleXss = 3', title: 'javascript:window.__consoleXss = 3' },
        { uri: 'https://safe.example/page', title: 'safe.example' },
      ],
      last: true,
    });
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}`);
    const { page } = tab;
    await page.getByText(`Answer ${payload}`).waitFor();
    await page.getByText('<script>window.__consoleXss = 2</script>').waitFor();
    await page
      .getByRole('heading', { level: 1, name: '<b id="bold-name">Bold</b> watch' })
      .waitFor();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#bold-name').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'safe.example' }).getAttribute('href')).toBe(
      'https://safe.example/page',
    );
    await page.getByText('javascript:window.__consoleXss = 3').first().waitFor();
    expect(await page.evaluate('window.__consoleXss')).toBeUndefined();
  });

  it("should edit a task's pages and page rule and show each run's page results with its added and removed lines", async () => {
    const user = await factory.user();
    const task = await factory.task(user, { name: 'Pricing page watch' });
    const pageUrl = `${receiver.url}/pricing`;
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}/edit`);
    const { page } = tab;
    await page.getByText('None: every check searches the web.').waitFor();
    await page.getByRole('button', { name: 'Add a page' }).click();
    await page.getByLabel('Page 1 URL').fill(pageUrl);
    await page.getByLabel('Page 1 CSS selector (optional)').fill('#price');
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.getByLabel('Header 1 name').fill('Cookie');
    await page.getByLabel('Header 1 value').fill('session=abc');
    await page.getByLabel('Page rule').selectOption('not_contains');
    await page.getByLabel('Text', { exact: true }).fill('Sold out');
    await tab.audit('task-pages-form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pricing page watch' }).waitFor();
    const stored = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(stored.body).toMatchObject({
      pages: [{ url: pageUrl, selector: '#price', headers: { Cookie: 'session=abc' } }],
      page_rule: { type: 'not_contains', text: 'Sold out' },
    });
    const details = page.getByRole('region', { name: 'What it watches' });
    expect(await details.innerText()).toMatch(/Selector: #price/);
    expect(await details.innerText()).toContain(
      'Page rule: Met when no page contains the text: “Sold out”',
    );

    const executionId = await factory.execution(task, { answer: 'Prices moved.', last: true });
    await testApp.db.query(`UPDATE executions SET page_results = $2::jsonb WHERE id = $1`, [
      executionId,
      JSON.stringify([
        {
          url: pageUrl,
          final_url: pageUrl,
          status: 'changed',
          http_status: 200,
          title: 'Pricing',
          error: null,
          added: ['Pro: 19 €'],
          removed: ['Pro: 15 €'],
          fetched_at: new Date().toISOString(),
        },
        {
          url: `${receiver.url}/status`,
          final_url: null,
          status: 'error',
          http_status: 503,
          title: null,
          error: 'HTTP 503',
          added: [],
          removed: [],
          fetched_at: new Date().toISOString(),
        },
      ]),
    ]);
    await page.reload();
    const results = page.locator('.execution').first().locator('.page-results');
    await results.getByRole('link', { name: 'Pricing' }).waitFor();
    expect((await results.locator('.diff-added').innerText()).trim()).toBe('+ Pro: 19 €');
    expect((await results.locator('.diff-removed').innerText()).trim()).toBe('- Pro: 15 €');
    const text = await results.innerText();
    expect(text).toMatch(/Pricing\s+Changed\s+HTTP 200/);
    expect(text).toMatch(/Error\s+HTTP 503\s+HTTP 503/);
    await tab.audit('task-page-results');
  });

  it("should show each page's last text, and a browser page's last screenshot beside it", async () => {
    const user = await factory.user();
    const task = await factory.task(user, { name: 'Drawn page watch' });
    const pageUrl = `${receiver.url}/drawn`;
    await testApp.db.query(`UPDATE tasks SET pages = $2::jsonb WHERE id = $1`, [
      task.id,
      JSON.stringify([{ url: pageUrl, render: 'browser', wait_for: '#app' }]),
    ]);
    await testApp.db.query(
      `INSERT INTO page_snapshots (task_id, url, status, http_status, title, text, content_hash,
         fetched_at, changed_at)
       VALUES ($1, $2, 'new', 200, 'Drawn', 'Drawn by a script', $3, now(), now())`,
      [task.id, pageUrl, 'a'.repeat(64)],
    );
    // A 1 x 1 transparent PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    await testApp.db.query(
      `INSERT INTO page_screenshots (task_id, url, png, taken_at) VALUES ($1, $2, $3, now())`,
      [task.id, pageUrl, png],
    );
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}`);
    const snapshots = tab.page.getByRole('list', { name: 'What each page last showed' });
    await snapshots.getByText('Drawn by a script').waitFor();
    const image = snapshots.getByRole('img', {
      name: `The page ${pageUrl} as the browser last drew it`,
    });
    await image.waitFor();
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('should be usable by keyboard alone, with a visible focus', async () => {
    const user = await factory.user();
    const task = await factory.task(user, { name: 'Keyboard watch' });
    const { page } = tab;
    await tab.goto();
    await page.getByLabel('API key').waitFor();
    expect(await focusedLabel()).toBe('API key');
    await page.keyboard.type(user.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Keyboard watch' }).waitFor();
    expect(await focusedLabel()).toBe('Tasks');
    await tabTo('Keyboard watch');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe(
      'solid',
    );
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Keyboard watch' }).waitFor();
    expect(await focusedLabel()).toBe('Keyboard watch');
    await tabTo('Delete');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await focusedLabel()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await tabTo('Execute now');
    expect(await testApp.db.query('SELECT 1 FROM tasks WHERE id = $1', [task.id])).toMatchObject({
      rowCount: 1,
    });

    /** The focused element's label or text. */
    function focusedLabel(): Promise<string> {
      return page.evaluate<string>(
        `(document.activeElement.labels?.[0] ?? document.activeElement).textContent.trim()`,
      );
    }

    /** Presses Tab until the element named `name` has the focus. */
    async function tabTo(name: string): Promise<void> {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab');
        if ((await focusedLabel()) === name) return;
      }
      throw new Error(`Tab never reached "${name}"`);
    }
  });

  it('should say a task was not found and lead back to the list when the task is unknown', async () => {
    const user = await factory.user();
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${randomUUID()}`);
    const { page } = tab;
    await page.getByRole('heading', { level: 1, name: 'Task not found' }).waitFor();
    expect(await focusedText(tab)).toBe('Task not found');
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await tab.audit('task-not-found');
    await page.getByRole('link', { name: 'Back to your tasks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    expect(tab.takeErrors([/status of 404/])).toEqual([]);
  });

  it('should show an error with a retry when a page cannot load, and load it on retry', async () => {
    const user = await factory.user();
    await tab.signIn(user.apiKey);
    const { page } = tab;
    await page.getByText('No tasks yet.').waitFor();
    await tab.context.setOffline(true);
    await page.getByRole('link', { name: 'Usage' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Could not load usage:', { exact: false }).waitFor();
    await tab.context.setOffline(false);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.locator('.stat').filter({ hasText: 'Executions' }).waitFor();
    expect(tab.takeErrors([/ERR_INTERNET_DISCONNECTED/])).toEqual([]);
  });

  it('should keep the key out and say it was not accepted when a first key is refused', async () => {
    await tab.goto();
    const { page } = tab;
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Paste an API key').waitFor();
    expect(await focusedId(tab)).toBe('api-key');
    await page.getByLabel('API key').fill('sk_not-a-key-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const error = page.locator('#api-key-error');
    await error
      .getByText('This API key was not accepted (Invalid API key).', { exact: false })
      .waitFor();
    expect(await page.getByText('signed out', { exact: false }).count()).toBe(0);
    expect(await page.getByLabel('API key').getAttribute('aria-describedby')).toContain(
      'api-key-error',
    );
    expect(await focusedId(tab)).toBe('api-key');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await tab.audit('sign-in-refused');
    expect(tab.takeErrors([/status of 401/])).toEqual([]);
  });

  it('should return to sign-in with a clear message when the key stops working', async () => {
    const user = await factory.user();
    await tab.signIn(user.apiKey);
    await tab.page.getByText('No tasks yet.').waitFor();
    await testApp.http
      .delete(`/auth/api-keys/${user.apiKeyId}`)
      .set('Authorization', user.auth)
      .expect(200);
    await tab.page.getByRole('link', { name: 'Usage' }).click();
    const message = tab.page.getByRole('alert');
    await message.getByText('Invalid API key', { exact: false }).waitFor();
    expect(await message.innerText()).toMatch(/signed out.*Sign in again/s);
    expect(await tab.page.evaluate('sessionStorage.length')).toBe(0);
    await tab.audit('signed-out');
    expect(tab.takeErrors([/status of 401/])).toEqual([]);
  });

  it('should let an administrator deactivate a user after saying what it does', async () => {
    const admin = await factory.user({ admin: true, email: `admin-${randomUUID()}@example.com` });
    const victim = await factory.user({ email: `victim-${randomUUID()}@example.com` });
    const watch = await factory.task(victim, { name: 'Victim watch', state: 'active' });
    await factory.execution(watch, {
      status: 'failed',
      errorMessage: `Grounded search failed: the provider answered 503 ${'and explained at length '.repeat(8)}`,
    });
    await tab.signIn(admin.apiKey);
    const { page } = tab;
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    for (const section of ['Platform', 'Users', 'Recent executions', 'Errors', 'Scheduler jobs'])
      await page.getByRole('heading', { level: 2, name: section }).waitFor();
    const users = page.getByRole('region', { name: 'Users' });
    await users.getByRole('cell', { name: victim.email, exact: true }).waitFor();
    await page.getByRole('region', { name: 'Usage by user' }).getByText(owner.email).waitFor();
    await tab.audit('admin');

    await users.getByRole('button', { name: `Deactivate ${victim.email}` }).click();
    const dialog = page.getByRole('dialog');
    const question = await dialog.locator('p').innerText();
    expect(question).toMatch(/API keys and sign-ins stop working/);
    expect(question).toMatch(/tasks are paused/);
    expect(question).toMatch(/you can reactivate them later/);
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByText(`${victim.email} deactivated; 1 task(s) paused.`).waitFor();
    await users
      .getByRole('row')
      .filter({ hasText: victim.email })
      .getByText('Deactivated', { exact: true })
      .waitFor();
    expect((await testApp.http.get('/auth/me').set('Authorization', victim.auth)).status).toBe(401);
  });

  // PATCH /admin/users/{id}/reactivate comes with the service's reactivation.
  it('should let an administrator reactivate a deactivated user', async () => {
    const admin = await factory.user({ admin: true, email: `admin-${randomUUID()}@example.com` });
    const returning = await factory.user({ email: `returning-${randomUUID()}@example.com` });
    await testApp.http
      .patch(`/admin/users/${returning.id}/deactivate`)
      .set('Authorization', admin.auth)
      .expect(200);
    await tab.signIn(admin.apiKey);
    await tab.goto('#/admin');
    const users = tab.page.getByRole('region', { name: 'Users' });
    await users.getByRole('button', { name: `Reactivate ${returning.email}` }).click();
    await tab.page
      .getByText(`${returning.email} reactivated: their credentials work again`, { exact: false })
      .waitFor();
    const row = users.getByRole('row').filter({ hasText: returning.email });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Deactivate ${returning.email}` }).waitFor();
    expect((await testApp.http.get('/auth/me').set('Authorization', returning.auth)).status).toBe(
      200,
    );
  });

  it('should go straight in without a key when AUTH_DISABLED=true', async () => {
    const open = await startTestApp({ env: { AUTH_DISABLED: 'true' } });
    const local = await ConsoleTab.open(browser, open.baseUrl);
    try {
      await local.goto();
      await local.page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
      await local.page.getByText('local@localhost').waitFor();
      expect(await local.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      expect(await local.page.getByLabel('API key').count()).toBe(0);
      expect(local.takeErrors()).toEqual([]);
    } finally {
      await local.close();
      await open.close();
    }
  });
});

/** The id of the element with the focus. */
function focusedId(tab: ConsoleTab): Promise<string> {
  return tab.page.evaluate<string>('document.activeElement.id');
}

/** The text of the element with the focus. */
function focusedText(tab: ConsoleTab): Promise<string> {
  return tab.page.evaluate<string>('document.activeElement.textContent.trim()');
}

/** A month as the console names it ("November 2026"). */
function monthName(month: Date): string {
  return month.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

async function expectNoAdminEntry(tab: ConsoleTab): Promise<void> {
  const navigation = tab.page.getByRole('navigation', { name: 'Main' });
  await navigation.getByRole('link', { name: 'Usage' }).waitFor();
  expect(await navigation.getByRole('link', { name: 'Admin' }).count()).toBe(0);
}

/** An input's value once it is not empty (a suggestion fills it asynchronously). */
function filledValue(locator: Locator): Promise<string> {
  return waitFor(
    async () => {
      const value = await locator.inputValue();
      return value === '' ? undefined : value;
    },
    { what: 'the field to be filled' },
  );
}
