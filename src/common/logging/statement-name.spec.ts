import { statementName } from './statement-name';

describe('statementName', () => {
  it.each([
    ['INSERT INTO "tasks"("id", "name") VALUES ($1, $2)', 'INSERT INTO "tasks"'],
    ['UPDATE "tasks" SET "name" = $1 WHERE "id" IN ($2)', 'UPDATE "tasks"'],
    ['\n  DELETE FROM page_snapshots WHERE task_id = $1', 'DELETE FROM page_snapshots'],
    [
      'SELECT "Task"."id" AS "Task_id" FROM "tasks" "Task" WHERE "Task"."id" = $1',
      'SELECT FROM "tasks"',
    ],
    ['select 1 from public.users where id = $1', 'SELECT FROM public.users'],
    ['COMMIT', 'COMMIT'],
    ['SELECT pg_advisory_lock($1)', 'SELECT'],
    ['', 'SQL'],
  ])('should name %j as %j', (sql, name) => {
    expect(statementName(sql)).toBe(name);
  });

  it('should read only the first words of a long statement', () => {
    expect(statementName(`SELECT ${'x, '.repeat(5_000)} FROM tasks`)).toBe('SELECT');
  });
});
