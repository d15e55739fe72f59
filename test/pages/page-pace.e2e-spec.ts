import type { ServerResponse } from 'node:http';
import { PageServer } from '../support/page-server';
import { startTaskHarness, type TaskHarness } from '../tasks/task-api';

const MINUTE = 60_000;
/** PAGE_CHECK_INTERVAL for this file; SCHEDULER_MIN_INTERVAL keeps its default, 15 minutes. */
const PAGE_CHECK_INTERVAL = 120 * MINUTE;
/** The check's end (the execution's `completed_at`) and the planner's clock are a moment apart. */
const SLACK_MS = 5_000;

describe('When a page task is checked', () => {
  let harness: TaskHarness;
  let server: PageServer;
  let pageText = 'Version 1.0';

  beforeAll(async () => {
    server = await new PageServer().start();
    server.page('/changelog', (_request, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(pageText);
    });
    harness = await startTaskHarness({ PAGE_CHECK_INTERVAL: '2h' });
  });
  afterAll(async () => {
    await harness.close();
    await server.stop();
  });

  /** Runs a check by hand and answers how long after its end the next one is due, in minutes. */
  async function checkAndMeasure(taskId: string): Promise<number> {
    const { api, owner } = harness;
    const pending = await api.execute(owner, taskId);
    const finished = await api.waitForExecution(owner, taskId, pending.id);
    expect(finished.status).toBe('success');
    return dueAfter(taskId, finished.completed_at!);
  }

  async function dueAfter(taskId: string, end: string): Promise<number> {
    const task = await harness.api.get(harness.owner, taskId);
    const [job] = await harness.api.liveJobs(taskId);
    // The queued check is the one the task shows.
    expect(job.start_after.toISOString()).toBe(task.next_run);
    const gap = new Date(task.next_run!).getTime() - new Date(end).getTime();
    const minutes = Math.round(gap / MINUTE);
    expect(Math.abs(gap - minutes * MINUTE)).toBeLessThan(SLACK_MS);
    return minutes;
  }

  it('should check a page rule task at PAGE_CHECK_INTERVAL, twice as often after a change, and slow down again after three quiet checks', async () => {
    const { api, owner } = harness;
    pageText = 'Version 1.0';
    const task = await api.create(owner, {
      search_query: 'Watch the changelog',
      pages: [{ url: `${server.origin}/changelog` }],
      page_rule: { type: 'changed' },
      // A met rule would complete a `once` task.
      notify_behavior: 'always',
    });
    // The first check runs at once, by the scheduler.
    await api.waitForIdle(task.id);
    const [first] = await api.executions(owner, task.id);
    expect(await dueAfter(task.id, first.completed_at!)).toBe(PAGE_CHECK_INTERVAL / MINUTE);

    pageText = 'Version 1.1';
    expect(await checkAndMeasure(task.id)).toBe(60);
    pageText = 'Version 1.2';
    expect(await checkAndMeasure(task.id)).toBe(30);

    expect(await checkAndMeasure(task.id)).toBe(30);
    expect(await checkAndMeasure(task.id)).toBe(30);
    expect(await checkAndMeasure(task.id)).toBe(60);
  });
});
