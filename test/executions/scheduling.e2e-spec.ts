import { Factory, type TestUser } from '../support/factory';
import { checkReply, GeminiStandIn, type CheckReplyOptions } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  ProviderScript,
  ROOMY_RATE_LIMITS,
  TaskApi,
  uniqueQuery,
  type ExecutionBody,
  type TaskBody,
} from '../tasks/task-api';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The gap between the check finishing and next_run being computed is milliseconds. */
const TOLERANCE = MINUTE;

interface Harness {
  testApp: TestApp;
  provider: ProviderScript;
  api: TaskApi;
  user: TestUser;
}

async function startHarness(
  gemini: GeminiStandIn,
  env: Record<string, string> = {},
): Promise<Harness> {
  const provider = new ProviderScript(gemini);
  const testApp = await startTestApp({ gemini, env: { ...ROOMY_RATE_LIMITS, ...env } });
  const api = new TaskApi(testApp);
  const user = await new Factory(testApp).user();
  return { testApp, provider, api, user };
}

/** Creates an active task whose first (scheduled) check gets `reply`, and waits for that check. */
async function firstCheck(
  harness: Harness,
  reply: CheckReplyOptions,
  body: Record<string, unknown> = {},
): Promise<{ task: TaskBody; execution: ExecutionBody }> {
  const query = uniqueQuery('scheduling');
  harness.provider.script(query, checkReply(reply));
  const created = await harness.api.create(harness.user, { search_query: query, ...body });
  await harness.api.waitForIdle(created.id);
  const task = await harness.api.get(harness.user, created.id);
  expect(task.last_execution).not.toBeNull();
  return { task, execution: task.last_execution! };
}

/** next_run minus the moment the check finished. */
function chosenInterval(task: TaskBody, execution: ExecutionBody): number {
  return Date.parse(task.next_run!) - Date.parse(execution.completed_at!);
}

/** The task has exactly one live check job, due at next_run. */
async function expectOneJobAtNextRun(harness: Harness, task: TaskBody): Promise<void> {
  const jobs = await harness.api.liveJobs(task.id);
  expect(jobs).toHaveLength(1);
  expect(jobs[0].id).toBe((await harness.api.row(task.id)).check_job_id);
  expect(Math.abs(jobs[0].start_after.getTime() - Date.parse(task.next_run!))).toBeLessThan(1000);
}

describe('Scheduling by the agent (default bounds 15m..7d)', () => {
  let gemini: GeminiStandIn;
  let harness: Harness;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    harness = await startHarness(gemini);
  });

  afterAll(async () => {
    await harness.testApp.close();
    await gemini.stop();
  });

  describe('next_run', () => {
    it('should clamp next_run to SCHEDULER_MAX_INTERVAL when the agent asks for 30 days', async () => {
      const { task, execution } = await firstCheck(harness, {
        nextCheckAt: new Date(Date.now() + 30 * DAY),
      });
      expect(execution.status).toBe('success');
      expect(task.state).toBe('active');
      expect(Math.abs(chosenInterval(task, execution) - 7 * DAY)).toBeLessThan(TOLERANCE);
      await expectOneJobAtNextRun(harness, task);
    });

    it('should clamp next_run to SCHEDULER_MIN_INTERVAL when the agent asks for 1 minute', async () => {
      const { task, execution } = await firstCheck(harness, {
        nextCheckAt: new Date(Date.now() + MINUTE),
      });
      expect(Math.abs(chosenInterval(task, execution) - 15 * MINUTE)).toBeLessThan(TOLERANCE);
      await expectOneJobAtNextRun(harness, task);
    });

    it('should keep the agent time when it lies between the bounds', async () => {
      const wanted = new Date(Date.now() + 3 * DAY);
      const { task } = await firstCheck(harness, { nextCheckAt: wanted });
      expect(Math.abs(Date.parse(task.next_run!) - wanted.getTime())).toBeLessThan(TOLERANCE);
    });

    it('should pick a default between the bounds when the agent gives null', async () => {
      const { task, execution } = await firstCheck(harness, { nextCheckAt: null });
      const interval = chosenInterval(task, execution);
      expect(interval).toBeGreaterThanOrEqual(15 * MINUTE - TOLERANCE);
      expect(interval).toBeLessThanOrEqual(7 * DAY + TOLERANCE);
      await expectOneJobAtNextRun(harness, task);
    });
  });

  describe('notify_behavior once', () => {
    it('should complete the task, clear next_run and drop its job when the condition is met', async () => {
      const { task, execution } = await firstCheck(harness, { conditionMet: true });
      expect(execution.notification).toMatchObject({
        notify: true,
        reason: 'condition_met',
        completes_task: true,
      });
      expect(task).toMatchObject({ state: 'completed', next_run: null, notify_behavior: 'once' });
      expect(await harness.api.liveJobs(task.id)).toEqual([]);
      expect((await harness.api.row(task.id)).check_job_id).toBeNull();
    });

    it('should keep the task active with a new job when the condition is not met', async () => {
      const { task, execution } = await firstCheck(harness, { conditionMet: false });
      expect(execution.notification).toMatchObject({ notify: false, completes_task: false });
      expect(task.state).toBe('active');
      expect(Date.parse(task.next_run!)).toBeGreaterThan(Date.now() + 10 * MINUTE);
      await expectOneJobAtNextRun(harness, task);
    });

    it('should not notify again when a completed task is run by hand and the condition is met', async () => {
      const { task } = await firstCheck(harness, {
        conditionMet: true,
        currentState: { status: 'shipped' },
      });
      expect(task.state).toBe('completed');
      harness.provider.script(
        task.search_query,
        checkReply({ conditionMet: true, currentState: { status: 'shipped again' } }),
      );

      const run = await harness.api.execute(harness.user, task.id);
      const execution = await harness.api.waitForExecution(harness.user, task.id, run.id);
      expect(execution).toMatchObject({ status: 'success', condition_met: true });
      expect(execution.notification).toMatchObject({ notify: false, completes_task: false });
      const after = await harness.api.get(harness.user, task.id);
      expect(after).toMatchObject({
        state: 'completed',
        next_run: null,
        last_known_state: task.last_known_state,
      });
      expect(await harness.api.liveJobs(task.id)).toEqual([]);
    });
  });

  describe('notify_behavior always', () => {
    it('should notify only when the reported state differs from the last notified one', async () => {
      const query = uniqueQuery('always');
      harness.provider.script(
        query,
        checkReply({ conditionMet: true, currentState: { price: 10 } }),
        checkReply({ conditionMet: true, currentState: { price: 10 } }),
        checkReply({ conditionMet: true, currentState: { price: 8 } }),
      );
      const { api, user } = harness;
      const created = await api.create(user, { search_query: query, notify_behavior: 'always' });
      expect(created.notify_behavior).toBe('always');
      await api.waitForIdle(created.id);
      const afterFirst = await api.get(user, created.id);
      expect(afterFirst.last_execution?.notification).toMatchObject({ notify: true });
      expect(afterFirst).toMatchObject({ state: 'active', last_known_state: { price: 10 } });

      const same = await api.execute(user, created.id);
      const unchanged = await api.waitForExecution(user, created.id, same.id);
      expect(unchanged).toMatchObject({ status: 'success', condition_met: true });
      expect(unchanged.notification).toMatchObject({ notify: false, reason: 'state_unchanged' });
      expect(await api.get(user, created.id)).toMatchObject({
        state: 'active',
        last_known_state: { price: 10 },
      });

      const changed = await api.execute(user, created.id);
      const news = await api.waitForExecution(user, created.id, changed.id);
      expect(news.notification).toMatchObject({ notify: true, completes_task: false });
      const final = await api.get(user, created.id);
      expect(final).toMatchObject({ state: 'active', last_known_state: { price: 8 } });
      // Runs by hand replace the scheduled check: still exactly one, due at next_run.
      await expectOneJobAtNextRun(harness, final);
    });
  });
});

describe('Scheduling by the agent with SCHEDULER_MIN_INTERVAL=1h', () => {
  let gemini: GeminiStandIn;
  let harness: Harness;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    harness = await startHarness(gemini, { SCHEDULER_MIN_INTERVAL: '1h' });
  });

  afterAll(async () => {
    await harness.testApp.close();
    await gemini.stop();
  });

  it('should clamp next_run to one hour when the agent asks for 1 minute', async () => {
    const { task, execution } = await firstCheck(harness, {
      nextCheckAt: new Date(Date.now() + MINUTE),
    });
    expect(Math.abs(chosenInterval(task, execution) - HOUR)).toBeLessThan(TOLERANCE);
    await expectOneJobAtNextRun(harness, task);
    expect(harness.provider.requestsFor(task.search_query)[0].promptText).toContain('1 hour');
  });
});
