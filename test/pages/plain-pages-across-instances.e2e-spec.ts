import { SIGNALS_APPLICATION_SUFFIX } from '../../src/database/database-signals';
import { PlainPageActivity, QUIET_MS } from '../../src/pages/plain-page-activity';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { plainPageUnderWay } from '../support/plain-page';

/** When `wait` resolves (epoch ms), or null while it has not. */
function resolvedAt(wait: Promise<void>): () => number | null {
  let at: number | null = null;
  void wait.then(() => (at = Date.now()));
  return () => at;
}

/**
 * docs/pages.md, "Pages that need a browser": a browser page waits for a pause in the plain pages
 * of every instance on its machine, which tell each other through the database's signals
 * (docs/architecture.md, "Signals between instances").
 */
describe('Plain pages across instances on one machine', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp();
    second = await startTestApp({ databaseUrl: first.databaseUrl });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** `aggregate` over the instances' connections for signals. */
  async function listening(aggregate: string): Promise<number> {
    const { rows } = await first.db.query<{ connections: number }>(
      `SELECT ${aggregate}::int AS connections FROM pg_stat_activity
       WHERE datname = current_database() AND application_name LIKE $1`,
      [`% ${SIGNALS_APPLICATION_SUFFIX}`],
    );
    return rows[0].connections;
  }

  /**
   * Checks that a waiter in the second instance waits while the first has a plain page under way,
   * and is quiet QUIET_MS after it ended, not before.
   */
  async function secondWaitsForFirst(): Promise<void> {
    const end = plainPageUnderWay(first.app.get(PlainPageActivity));
    const waiting = resolvedAt(
      second.app.get(PlainPageActivity).quiet(Date.now(), Date.now() + 60_000),
    );
    await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
    expect(waiting()).toBeNull();
    await end();
    const endedAt = Date.now();
    const quietAt = await waitFor(async () => waiting(), { what: 'the second instance quiet' });
    expect(quietAt - endedAt).toBeGreaterThanOrEqual(QUIET_MS);
  }

  it("should make one instance's browser pages wait for another's plain pages", async () => {
    await waitFor(async () => (await listening('count(*)')) === 2, {
      what: 'both instances listening',
    });
    await secondWaitsForFirst();
  });

  it('should hear the other instance again once its connection for signals was lost', async () => {
    expect(await listening('count(pg_terminate_backend(pid))')).toBe(2);
    await waitFor(async () => (await listening('count(*)')) === 2, {
      what: 'both instances listening again',
    });
    await secondWaitsForFirst();
  });
});
