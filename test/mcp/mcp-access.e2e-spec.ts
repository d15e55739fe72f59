import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Factory } from '../support/factory';
import { GeminiStandIn, suggestReply } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { uniqueQuery } from '../tasks/task-api';
import { callTool, connectMcp, textOf } from './mcp-client';

/** Both media types, as the Streamable HTTP transport requires of a client. */
const ACCEPT = 'application/json, text/event-stream';

function listToolsMessage(id = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/list', params: {} };
}

describe('MCP: credentials, limits and the transport', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let factory: Factory;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    testApp = await startTestApp({
      gemini,
      env: {
        RATE_LIMIT_PER_MINUTE: '8',
        RATE_LIMIT_LLM_PER_HOUR: '1',
        RATE_LIMIT_PAGE_CHECKS_PER_HOUR: '1',
        MAX_ACTIVE_TASKS_PER_USER: '1',
      },
    });
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await gemini.stop();
  });

  it('should answer 401 with WWW-Authenticate: Bearer without credentials', async () => {
    const response = await testApp.http.post('/mcp').set('Accept', ACCEPT).send(listToolsMessage());
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.body).toEqual({ detail: 'Authorization header missing' });
    const wrong = await testApp.http
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', 'Bearer sk_not_a_key')
      .send(listToolsMessage());
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
  });

  it('should take a JWT as the REST API does', async () => {
    const user = await factory.user();
    const client = await connectMcp(testApp, `Bearer ${user.jwt}`);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(13);
    await client.close();
  });

  it('should refuse a deactivated user', async () => {
    const [admin, user] = await Promise.all([factory.user({ admin: true }), factory.user()]);
    const client = await connectMcp(testApp, user.auth);
    await testApp.http
      .patch(`/admin/users/${user.id}/deactivate`)
      .set('Authorization', `Bearer ${admin.jwt}`)
      .expect(200);
    const refused = await client
      .callTool({ name: 'list_tasks', arguments: {} })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    const raw = await testApp.http
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', user.auth)
      .send(listToolsMessage());
    expect(raw.status).toBe(401);
  });

  it("should count each call in the caller's per-key limits", async () => {
    const user = await factory.user();
    // initialize and its notification are two requests of the eight a minute.
    const client = await connectMcp(testApp, user.auth);
    for (let call = 0; call < 6; call += 1) {
      const result = await callTool(client, 'list_tasks');
      expect(result.isError).toBeFalsy();
    }
    const limited = await client
      .callTool({ name: 'list_tasks', arguments: {} })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(StreamableHTTPError);
    expect((limited as StreamableHTTPError).code).toBe(429);
    // The same key over REST is past its limit too.
    const rest = await testApp.http.get('/api/v1/tasks').set('Authorization', user.auth);
    expect(rest.status).toBe(429);
  });

  it('should count suggest in the model-call limit shared with REST', async () => {
    const user = await factory.user();
    const client = await connectMcp(testApp, user.auth);
    gemini.respondWith(() => suggestReply({ name: 'Suggested' }));
    const first = await callTool(client, 'suggest_task', { prompt: uniqueQuery('watch') });
    expect(first.isError).toBeFalsy();
    const second = await callTool(client, 'preview_task', { search_query: uniqueQuery('query') });
    expect(second).toMatchObject({ isError: true });
    expect(textOf(second)).toBe('Rate limit exceeded');
    const rest = await testApp.http
      .post('/api/v1/tasks/suggest')
      .set('Authorization', `Bearer ${user.jwt}`)
      .send({ prompt: 'another prompt' });
    expect(rest.status).toBe(429);
    await client.close();
  });

  it('should count execute_task of a page-rule task in the page checks shared with REST', async () => {
    const user = await factory.user();
    const create = async (body: Record<string, unknown>) => {
      const { body: task } = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', `Bearer ${user.jwt}`)
        .send({ state: 'paused', ...body })
        .expect(200);
      return (task as { id: string }).id;
    };
    const pageTask = await create({
      search_query: uniqueQuery('page'),
      pages: [{ url: 'http://127.0.0.1:9/changelog' }],
      page_rule: { type: 'changed' },
    });
    const modelTask = await create({ search_query: uniqueQuery('model') });
    const client = await connectMcp(testApp, user.auth);
    const first = await callTool(client, 'execute_task', { id: pageTask });
    expect(first.isError).toBeFalsy();
    const second = await callTool(client, 'execute_task', { id: pageTask, force: true });
    expect(second).toMatchObject({ isError: true });
    expect(textOf(second)).toBe('Page check limit of 1 per hour reached');
    // The one model call of the hour is still there.
    const model = await callTool(client, 'execute_task', { id: modelTask });
    expect(model.isError).toBeFalsy();
    const rest = await testApp.http
      .post(`/api/v1/tasks/${pageTask}/execute?force=true`)
      .set('Authorization', `Bearer ${user.jwt}`);
    expect(rest.status).toBe(429);
    await client.close();
  });

  it('should hold the active task cap', async () => {
    const user = await factory.user();
    const client = await connectMcp(testApp, user.auth);
    const first = await callTool(client, 'create_task', { search_query: uniqueQuery('first') });
    expect(first.isError).toBeFalsy();
    const second = await callTool(client, 'create_task', { search_query: uniqueQuery('second') });
    expect(second).toMatchObject({ isError: true });
    expect(textOf(second)).toBe('Active task limit reached (1)');
    const { rows } = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM tasks WHERE user_id = $1',
      [user.id],
    );
    expect(rows[0].count).toBe(1);
    await client.close();
  });

  it("should answer malformed JSON-RPC with the protocol's errors, never a 500", async () => {
    const user = await factory.user();
    const post = () =>
      testApp.http
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Authorization', user.auth)
        .set('Content-Type', 'application/json');
    const broken = await post().send('{"jsonrpc": "2.0", "id": 1,');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
    });
    const notRpc = await post().send({ hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body).toMatchObject({ error: { code: -32700 } });
    const batch = await post().send([listToolsMessage(1), listToolsMessage(2)]);
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ error: { code: -32600 } });
    const unknown = await post().send({ jsonrpc: '2.0', id: 7, method: 'no/such', params: {} });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ id: 7, error: { code: -32601 } });
    const tooLarge = await post().send({ ...listToolsMessage(), padding: 'x'.repeat(110_000) });
    expect(tooLarge.status).toBe(413);
    const stream = await testApp.http.get('/mcp').set('Authorization', user.auth);
    expect(stream.status).toBe(405);
  });

  it('should not serve /mcp when MCP_ENABLED=false', async () => {
    const disabled = await startTestApp({ env: { MCP_ENABLED: 'false' } });
    try {
      const response = await disabled.http
        .post('/mcp')
        .set('Accept', ACCEPT)
        .send(listToolsMessage());
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Not Found' });
    } finally {
      await disabled.close();
    }
  });
});
