import type { TestApp } from './test-app';

/**
 * Runs `work` while the job queue refuses to insert or delete the jobs of one task: a real
 * database failure (a trigger on pgboss.job raising 'queue unavailable'), not a mock. The trigger
 * is removed afterwards whatever happens.
 */
export async function withQueueFailure<T>(
  testApp: TestApp,
  operation: 'INSERT' | 'DELETE',
  taskId: string,
  work: () => Promise<T>,
): Promise<T> {
  const row = operation === 'INSERT' ? 'NEW' : 'OLD';
  await testApp.db.query(`
    CREATE OR REPLACE FUNCTION test_refuse_job_change() RETURNS trigger AS $$
    BEGIN
      IF ${row}.data ->> 'taskId' = TG_ARGV[0] THEN
        RAISE EXCEPTION 'queue unavailable';
      END IF;
      RETURN ${row};
    END $$ LANGUAGE plpgsql`);
  await testApp.db.query(
    `CREATE TRIGGER test_refuse_job_change BEFORE ${operation} ON pgboss.job
     FOR EACH ROW EXECUTE FUNCTION test_refuse_job_change('${taskId}')`,
  );
  try {
    return await work();
  } finally {
    await testApp.db.query('DROP TRIGGER IF EXISTS test_refuse_job_change ON pgboss.job');
    await testApp.db.query('DROP FUNCTION IF EXISTS test_refuse_job_change()');
  }
}
