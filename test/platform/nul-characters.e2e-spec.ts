import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomBytes } from 'node:crypto';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client';
import { expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { ROOMY_RATE_LIMITS, uniqueQuery, type TaskBody } from '../tasks/task-api';

/** Letters and digits only, so no rule of the log's text masking is what hides it. */
function secretText(): string {
  return randomBytes(24).toString('hex');
}

const refused = (loc: (string | number)[], field: string) => ({
  type: 'value_error',
  loc,
  msg: `${field} must not contain NUL characters`,
});

/**
 * docs/api.md, "Errors" and "MCP": PostgreSQL stores no text holding U+0000, so a request that
 * carries one anywhere is a 422 naming where (an MCP call: `isError`), never a 500, and the log
 * of such a request holds none of its secrets.
 */
describe('NUL characters in requests', () => {
  const lines: string[] = [];
  let testApp: TestApp;
  let user: TestUser;
  let mcp: Client;
  let task: TaskBody;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { ...ROOMY_RATE_LIMITS, LOG_LEVEL: 'debug' },
      logDestination: { write: (chunk: string) => void lines.push(chunk) },
    });
    user = await new Factory(testApp).user();
    mcp = await connectMcp(testApp, user.auth);
    task = (
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: uniqueQuery('nul'), state: 'paused' })
        .expect(200)
    ).body as TaskBody;
  });

  afterAll(async () => {
    await mcp?.close();
    await testApp?.close();
  });

  const create = (body: Record<string, unknown>) =>
    testApp.http.post('/api/v1/tasks').set('Authorization', user.auth).send(body);

  it('should refuse a NUL in a task name on create and update, naming name', async () => {
    const name = `bad\u0000name`;
    const created = await create({ name, search_query: uniqueQuery('nul name') });
    expectValidationError(created, [refused(['body', 'name'], 'name')]);
    expect(created.body).toEqual({
      detail: [{ ...refused(['body', 'name'], 'name'), input: name }],
    });

    const updated = await testApp.http
      .put(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .send({ name });
    expectValidationError(updated, [refused(['body', 'name'], 'name')]);
    const { rows } = await testApp.db.query<{ name: string }>(
      'SELECT name FROM tasks WHERE id = $1',
      [task.id],
    );
    expect(rows[0].name).toBe(task.name);
  });

  it('should name the path of a NUL at any depth, in arrays and objects', async () => {
    const response = await create({
      search_query: uniqueQuery('nul nested'),
      notifications: [{ type: 'webhook', url: 'http://127.0.0.1:9/\u0000' }],
      pages: [{ url: 'http://127.0.0.1:9/page', headers: { 'X-Session': 'id=\u0000' } }],
      output_schema: {
        type: 'object',
        properties: { price: { type: 'number', description: 'in \u0000 euros' } },
      },
    });
    expectValidationError(response, [
      refused(['body', 'notifications', 0, 'url'], 'url'),
      refused(['body', 'pages', 0, 'headers', 'X-Session'], 'X-Session'),
      refused(['body', 'output_schema', 'properties', 'price', 'description'], 'description'),
    ]);
    expect((response.body as { detail: unknown[] }).detail).toHaveLength(3);
  });

  it('should refuse a NUL in a query or a path parameter', async () => {
    expectValidationError(
      await testApp.http.get('/api/v1/tasks?state=a%00').set('Authorization', user.auth),
      [refused(['query', 'state'], 'state')],
    );
    expectValidationError(
      await testApp.http
        .delete('/api/v1/email-verifications/a%00b%40example.org')
        .set('Authorization', user.auth),
      [refused(['path', 'email'], 'email')],
    );
  });

  it('should answer an MCP call with a NUL in its arguments with an error result', async () => {
    const created = await callTool(mcp, 'create_task', {
      name: 'bad\u0000name',
      search_query: uniqueQuery('nul over mcp'),
    });
    expect(created.isError).toBe(true);
    expect(JSON.parse(textOf(created))).toEqual([
      { ...refused(['name'], 'name'), input: 'bad\u0000name' },
    ]);
    const updated = await callTool(mcp, 'update_task', {
      id: task.id,
      pages: [{ url: 'http://127.0.0.1:9/page', headers: { Cookie: 'a=\u0000' } }],
    });
    expect(updated.isError).toBe(true);
    expect(JSON.parse(textOf(updated))).toEqual([
      expect.objectContaining(refused(['pages', 0, 'headers', 'Cookie'], 'Cookie')),
    ]);
  });

  it('should log no secret of a refused request, and no server error', async () => {
    const secrets = [secretText(), secretText(), secretText()];
    const requestId = `nul-${secretText()}`;
    await create({
      name: `nul\u0000`,
      search_query: uniqueQuery('nul with secrets'),
      notifications: [
        { type: 'webhook', url: 'http://127.0.0.1:9/hook', headers: { 'X-Key': secrets[0] } },
        { type: 'ntfy', url: 'http://127.0.0.1:9/topic', token: secrets[1] },
      ],
      pages: [{ url: 'http://127.0.0.1:9/page', headers: { Cookie: `session=${secrets[2]}` } }],
    })
      .set('X-Request-Id', requestId)
      .expect(422);
    await callTool(mcp, 'create_task', {
      name: `nul\u0000`,
      search_query: uniqueQuery('nul with secrets'),
      notifications: [{ type: 'ntfy', url: 'http://127.0.0.1:9/topic', token: secrets[1] }],
    });
    const all = lines.join('');
    expect(all).toContain(requestId);
    expect(secrets.filter((secret) => all.includes(secret))).toEqual([]);
    expect(all).not.toMatch(/"status":5\d\d/);
  });
});
