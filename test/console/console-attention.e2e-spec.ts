import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { Factory, TestUser } from '../support/factory';
import type { GeminiStandIn } from '../support/gemini-stand-in';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { uniqueQuery, type ProviderScript } from '../tasks/task-api';
import { ConsoleTab } from './console-browser';
import { startConsoleStack, type ConsoleStack } from './console-stack';

const SOURCES = [{ uri: 'https://news.example/launch', title: 'news.example' }];

interface TaskAnswer {
  alert: { execution_id: string; acknowledged_at: string | null; repeats_sent: number } | null;
  alert_policy: unknown;
  notifications: Array<Record<string, unknown>>;
}

/** Attention in the console (docs/console.md, "Attention"), in Chromium against the service. */
describe('Console: attention', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let provider: ProviderScript;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let factory: Factory;
  let user: TestUser;
  let tab: ConsoleTab;

  let stack: ConsoleStack;

  beforeAll(async () => {
    stack = await startConsoleStack({ ALERT_MIN_REPEAT: '1s' });
    ({ testApp, gemini, provider, receiver, browser, factory } = stack);
  });

  afterAll(() => stack?.stop());

  beforeEach(async () => {
    user = await factory.user();
    tab = await ConsoleTab.open(browser, testApp.baseUrl);
  });

  afterEach(async () => {
    const errors = tab.takeErrors();
    await tab.close();
    expect(errors).toEqual([]);
  });

  async function getTask(taskId: string): Promise<TaskAnswer> {
    const { body } = await testApp.http
      .get(`/api/v1/tasks/${taskId}`)
      .set('Authorization', user.auth)
      .expect(200);
    return body as TaskAnswer;
  }

  /** An `always` task whose every check finds its condition met, notifying a webhook. */
  async function metTask(body: Record<string, unknown>): Promise<string> {
    const query = uniqueQuery('Acme Rocket shipping date');
    provider.script(
      query,
      gemini.checkReply({ conditionMet: true, answer: 'Acme ships on 1 March.', sources: SOURCES }),
    );
    const task = await factory.task(user, {
      name: 'Acme Rocket shipping',
      search_query: query,
      notify_behavior: 'always',
      notifications: [{ type: 'webhook', url: `${receiver.url}/hooks/${randomUUID()}` }],
      ...body,
    });
    return task.id;
  }

  it('should show the standing alert with its reminders and acknowledge it', async () => {
    const taskId = await metTask({
      state: 'active',
      alert_policy: { repeat_every: '1s', repeat_max: 2 },
    });
    await waitFor(async () => (await getTask(taskId)).alert?.repeats_sent === 2 || undefined, {
      what: 'the alert and its two reminders',
    });
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${taskId}`);
    const { page } = tab;
    const card = page.getByRole('region', { name: 'Standing alert' });
    await card.getByText('Not acknowledged').waitFor();
    const details = await card.locator('dl').innerText();
    expect(details).toMatch(/Notified\s+\S/);
    expect(details).toMatch(/Reminders sent\s+2 of at most 2, every 1s/);
    expect(details).toMatch(/Acknowledged\s+Not yet/);
    expect(await page.getByRole('region', { name: 'What it watches' }).innerText()).toMatch(
      /Alert policy\s+Reminders every 1s, at most 2 times/,
    );
    const sends = page.getByRole('region', { name: 'Send records' });
    expect(await sends.getByRole('row').filter({ hasText: 'Reminder' }).count()).toBe(2);
    await tab.audit('task-alert');

    await card.getByRole('button', { name: 'Acknowledge' }).click();
    await card.getByText('Alert acknowledged: no more reminders.').waitFor();
    await card.locator('.badge').getByText('Acknowledged', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await card.locator('dl').innerText()).not.toContain('Not yet');
    expect((await getTask(taskId)).alert?.acknowledged_at).toEqual(expect.any(String));
    await tab.audit('task-alert-acknowledged');
  });

  it('should say there is no alert to acknowledge when it was withdrawn after the page showed it', async () => {
    const taskId = await metTask({ state: 'paused' });
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${taskId}`);
    const { page } = tab;
    await page.getByRole('button', { name: 'Execute now' }).click();
    const card = page.getByRole('region', { name: 'Standing alert' });
    await card.getByText('Not acknowledged').waitFor();
    expect(await card.locator('dl').innerText()).toMatch(/Reminders sent\s+None: no reminders set/);
    await testApp.db.query('UPDATE tasks SET alert_execution_id = NULL WHERE id = $1', [taskId]);

    await card.getByRole('button', { name: 'Acknowledge' }).click();
    await card.getByRole('alert').getByText('No alert to acknowledge').waitFor();
    await card.getByText('No alert stands now.').waitFor();
    expect(await card.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(tab.takeErrors([/status of 409/])).toEqual([]);
  });

  it('should show a paused notification config with its reason and resume it', async () => {
    const task = await factory.task(user, {
      name: 'Paused hook watch',
      notifications: [{ type: 'webhook', url: `${receiver.url}/hooks/${randomUUID()}` }],
    });
    const reason = '10 deliveries in a row failed: HTTP 404';
    const pause = () =>
      testApp.db.query(
        `UPDATE tasks SET notifications = (
           SELECT jsonb_agg(config || jsonb_build_object('paused_at', now(), 'pause_reason', $2::text))
             FROM jsonb_array_elements(notifications) AS config)
         WHERE id = $1`,
        [task.id, reason],
      );
    await pause();
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}`);
    const { page } = tab;
    const paused = page.locator('.config-paused');
    await paused.getByText(reason, { exact: false }).waitFor();
    expect(await paused.locator('.badge').innerText()).toBe('Paused');
    await tab.audit('task-config-paused');

    await page.getByRole('button', { name: 'Resume Webhook' }).click();
    await page.getByRole('status').getByText('Webhook resumed.').waitFor();
    await paused.waitFor({ state: 'detached' });
    const [config] = (await getTask(task.id)).notifications;
    expect(config.paused_at).toBeUndefined();
    expect(config.pause_reason).toBeUndefined();

    // Saving the task with the config resumes it too, its webhook secret kept.
    await pause();
    await tab.goto(`#/tasks/${task.id}/edit`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Paused hook watch' }).waitFor();
    expect((await getTask(task.id)).notifications).toEqual([config]);
  });

  it('should show held and skipped sends and reminder and digest events by their labels', async () => {
    const task = await factory.task(user, { name: 'Quiet watch' });
    const executionId = await factory.execution(task, { conditionMet: true, last: true });
    const rows: Array<[string, string, string | null]> = [
      ['reminder', 'held', 'Quiet hours until 07:00'],
      ['digest', 'success', null],
      ['condition_met', 'skipped', 'Paused: 10 deliveries in a row failed: HTTP 404'],
    ];
    for (const [index, [event, status, error]] of rows.entries())
      await testApp.db.query(
        `INSERT INTO notification_sends
           (user_id, task_id, execution_id, recipient, notification_type, event, status, error_message, created_at)
         VALUES ($1, $2, $3, 'https://hooks.example/in', 'webhook', $4, $5, $6, now() - make_interval(mins => $7))`,
        [user.id, task.id, executionId, event, status, error, index],
      );
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}`);
    const sends = tab.page.getByRole('region', { name: 'Send records' });
    await sends.getByRole('cell', { name: 'Reminder', exact: true }).waitFor();
    const shownRows = (await sends.getByRole('row').all()).slice(1);
    // Each row's Event and Status.
    const shown = await Promise.all(
      shownRows.map(async (row) => (await row.getByRole('cell').allInnerTexts()).slice(2, 4)),
    );
    expect(shown).toEqual([
      ['Reminder', 'Held'],
      ['Digest', 'Delivered'],
      ['Condition met', 'Skipped'],
    ]);
    const badge = (label: string) =>
      sends.locator('.badge').filter({ hasText: label }).getAttribute('class');
    expect(await badge('Held')).toBe('badge badge-info');
    expect(await badge('Skipped')).toBe('badge badge-muted');
    await tab.audit('task-sends-attention');
  });

  it("should edit a task's alert policy, with the API's reason beside the field it names", async () => {
    const task = await factory.task(user, { name: 'Policy watch', notify_behavior: 'once' });
    await tab.signIn(user.apiKey);
    await tab.goto(`#/tasks/${task.id}/edit`);
    const { page } = tab;
    const repeatEvery = page.getByLabel('Remind every');
    await repeatEvery.waitFor();
    expect(await repeatEvery.isDisabled()).toBe(true);
    await page.getByLabel('Notify').selectOption('always');
    expect(await repeatEvery.isDisabled()).toBe(false);

    await page.getByLabel('Cooldown').fill('90 s');
    await repeatEvery.fill('1h');
    await page.getByLabel('Reminders at most').fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const error = page.locator('#alert-cooldown-error');
    await error.waitFor();
    expect(await error.innerText()).toBe(
      'Invalid alert_policy: cooldown must be a duration such as 30s, 15m, 2h or 1d',
    );
    expect(await page.evaluate('document.activeElement.id')).toBe('alert-cooldown');
    await tab.audit('task-alert-policy-form');
    expect(tab.takeErrors([/status of 400/])).toEqual([]);

    await page.getByLabel('Cooldown').fill('10m');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Policy watch' }).waitFor();
    expect((await getTask(task.id)).alert_policy).toEqual({
      cooldown: '10m',
      repeat_every: '1h',
      repeat_max: 3,
    });
    expect(await page.getByRole('region', { name: 'What it watches' }).innerText()).toMatch(
      /Alert policy\s+Cooldown 10m\. Reminders every 1h, at most 3 times/,
    );

    await tab.goto(`#/tasks/${task.id}/edit`);
    await page.getByLabel('Cooldown').waitFor();
    expect(await page.getByLabel('Cooldown').inputValue()).toBe('10m');
    await page.getByLabel('Cooldown').fill('');
    await repeatEvery.fill('');
    await page.getByLabel('Reminders at most').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Policy watch' }).waitFor();
    expect((await getTask(task.id)).alert_policy).toBeNull();
  });

  it('should save preferences from the Preferences page and show what the API refuses', async () => {
    await tab.signIn(user.apiKey);
    const { page } = tab;
    await page.getByRole('link', { name: 'Preferences' }).click();
    await page.getByRole('heading', { level: 1, name: 'Preferences' }).waitFor();
    const timeZone = page.getByLabel('Time zone');
    expect(await timeZone.inputValue()).toBe('UTC');
    expect(await page.locator('#time-zones option[value="Europe/Paris"]').count()).toBe(1);
    await tab.audit('preferences');

    await timeZone.fill('Mars/Olympus_Mons');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    const zoneError = page.locator('#time-zone-error');
    await zoneError.waitFor();
    expect(await zoneError.innerText()).toMatch(/^Invalid preferences: time_zone /);
    expect(await page.evaluate('document.activeElement.id')).toBe('time-zone');

    await timeZone.fill('europe/paris');
    await page.getByLabel('Hold notifications during quiet hours').check();
    await page.getByLabel('From').fill('08:00');
    await page.getByLabel('Until').fill('08:00');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    const quietError = page.locator('#quiet-start-error');
    await quietError.waitFor();
    expect(await quietError.innerText()).toBe(
      'Invalid preferences: quiet_hours.start and quiet_hours.end must differ',
    );
    expect(tab.takeErrors([/status of 400/])).toEqual([]);

    await page.getByLabel('From').fill('22:00');
    await page.getByLabel('Until').fill('07:00');
    expect(await page.getByLabel('On', { exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Frequency').selectOption('weekly');
    await page.getByLabel('At', { exact: true }).fill('09:30');
    await page.getByLabel('On', { exact: true }).selectOption('5');
    await tab.audit('preferences-filled');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByRole('status').getByText('Preferences saved.').waitFor();
    expect(await timeZone.inputValue()).toBe('Europe/Paris');
    const { body } = await testApp.http
      .get('/api/v1/users/me/preferences')
      .set('Authorization', user.auth)
      .expect(200);
    expect(body).toEqual({
      time_zone: 'Europe/Paris',
      quiet_hours: { start: '22:00', end: '07:00' },
      digest: { frequency: 'weekly', at: '09:30', weekday: 5 },
    });

    await page.getByLabel('Hold notifications during quiet hours').uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await waitFor(
      async () => {
        const { body: now } = await testApp.http
          .get('/api/v1/users/me/preferences')
          .set('Authorization', user.auth)
          .expect(200);
        return (now as { quiet_hours: unknown }).quiet_hours === null || undefined;
      },
      { what: 'the quiet hours to be cleared' },
    );
  });
});
