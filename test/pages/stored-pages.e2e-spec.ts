import { DataSource } from 'typeorm';
import { StoredPagesBounds1795832000000 } from '../../migrations/1795832000000-StoredPagesBounds';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { ROOMY_RATE_LIMITS, TaskApi, uniqueQuery, type TaskBody } from '../tasks/task-api';

interface PageResultBody {
  url: string;
  status: string;
}

/**
 * docs/pages.md, "Snapshots": a task's stored pages follow its `pages`. An update that drops a
 * page deletes its snapshot in the update's transaction, a check reads and stores only the pages
 * its task names, and deleting the task deletes them all.
 */
describe('Stored pages follow the task', () => {
  let testApp: TestApp;
  let server: PageServer;
  let owner: TestUser;
  let api: TaskApi;
  let first: string;
  let second: string;

  beforeAll(async () => {
    server = await new PageServer().start();
    testApp = await startTestApp({ env: ROOMY_RATE_LIMITS });
    owner = await new Factory(testApp).user();
    api = new TaskApi(testApp);
    first = server.fixed('/first', 200, 'text/html', '<p>First page</p>');
    second = server.fixed('/second', 200, 'text/html', '<p>Second page</p>');
  });
  afterAll(async () => {
    await testApp?.close();
    await server?.stop();
  });

  const createTask = async (urls: string[]): Promise<TaskBody> =>
    (
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: uniqueQuery('stored pages'),
          state: 'paused',
          pages: urls.map((url) => ({ url })),
          page_rule: { type: 'changed' },
        })
        .expect(200)
    ).body as TaskBody;

  const setPages = (taskId: string, urls: string[] | null) =>
    testApp.http
      .put(`/api/v1/tasks/${taskId}`)
      .set('Authorization', owner.auth)
      .send({ pages: urls === null ? null : urls.map((url) => ({ url })) })
      .expect(200);

  /** Runs a check of the task; answers its pages' results. */
  const check = async (taskId: string): Promise<PageResultBody[]> => {
    const pending = await api.execute(owner, taskId);
    const done = await api.waitForExecution(owner, taskId, pending.id);
    expect(done.status).toBe('success');
    return (done.page_results as PageResultBody[]).map(({ url, status }) => ({ url, status }));
  };

  const storedUrls = async (taskId: string): Promise<string[]> =>
    (
      await testApp.db.query<{ url: string }>(
        'SELECT url FROM page_snapshots WHERE task_id = $1 ORDER BY url',
        [taskId],
      )
    ).rows.map((row) => row.url);

  it('should delete the snapshot of a page an update removes, and check only the pages named', async () => {
    const task = await createTask([first, second]);
    expect(await check(task.id)).toEqual([
      { url: first, status: 'new' },
      { url: second, status: 'new' },
    ]);
    expect(await storedUrls(task.id)).toEqual([first, second]);

    await setPages(task.id, [first]);
    expect(await storedUrls(task.id)).toEqual([first]);
    expect(await check(task.id)).toEqual([{ url: first, status: 'same' }]);
    expect(await storedUrls(task.id)).toEqual([first]);

    // A page named again starts afresh: nothing of its earlier text was kept.
    await setPages(task.id, [first, second]);
    expect(await check(task.id)).toEqual([
      { url: first, status: 'same' },
      { url: second, status: 'new' },
    ]);

    await setPages(task.id, null);
    expect(await storedUrls(task.id)).toEqual([]);
  });

  it('should store no snapshot of a page removed while its check read it', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = server.page('/slow', (_request, response) => {
      void released.then(() =>
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Slow page</p>'),
      );
    });
    const task = await createTask([first, slow]);
    const pending = await api.execute(owner, task.id);
    await waitFor(async () => server.requests.some((request) => request.path === '/slow'), {
      what: 'the check to read the slow page',
    });
    await setPages(task.id, [first]);
    release();
    await api.waitForExecution(owner, task.id, pending.id);
    expect(await storedUrls(task.id)).not.toContain(slow);
  });

  it('should delete, on migrating, what was stored of pages a task no longer names, and cut long titles', async () => {
    const task = await createTask([first]);
    await check(task.id);
    // As an earlier version left them: a page the task stopped naming, a title of any length.
    await testApp.db.query(
      `INSERT INTO page_snapshots (task_id, url, status, text, title, content_hash, fetched_at)
       VALUES ($1, $2, 'new', 'Gone page', 'Gone', 'h', now())`,
      [task.id, second],
    );
    await testApp.db.query(
      `INSERT INTO page_item_keys (task_id, url, key_hash, seen_at, position)
       VALUES ($1, $2, 'k', now(), 0), ($1, $3, 'k', now(), 0)`,
      [task.id, first, second],
    );
    await testApp.db.query('UPDATE page_snapshots SET title = $2 WHERE task_id = $1 AND url = $3', [
      task.id,
      't'.repeat(5_000),
      first,
    ]);
    const dataSource = new DataSource(buildDataSourceOptions(testApp.databaseUrl, 2));
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      await new StoredPagesBounds1795832000000().up(runner);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
    expect(await storedUrls(task.id)).toEqual([first]);
    const { rows } = await testApp.db.query<{ url: string; title: string }>(
      `SELECT s.url, s.title FROM page_snapshots s WHERE s.task_id = $1
       UNION ALL SELECT k.url, NULL FROM page_item_keys k WHERE k.task_id = $1 ORDER BY 1, 2`,
      [task.id],
    );
    expect(rows).toEqual([
      { url: first, title: 't'.repeat(300) },
      { url: first, title: null },
    ]);
  });

  it("should delete a task's snapshots with the task", async () => {
    const task = await createTask([first, second]);
    await check(task.id);
    expect(await storedUrls(task.id)).toHaveLength(2);
    await testApp.http
      .delete(`/api/v1/tasks/${task.id}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await storedUrls(task.id)).toEqual([]);
  });
});
