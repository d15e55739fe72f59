import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkReply, suggestReply } from '../support/gemini-stand-in';
import type { TestUser } from '../support/factory';
import { startTaskHarness, uniqueQuery, type TaskHarness } from '../tasks/task-api';
import { callTool, connectMcp, textOf } from './mcp-client';

const TOOLS = [
  'acknowledge_task',
  'create_task',
  'delete_task',
  'execute_task',
  'get_task',
  'get_usage',
  'list_executions',
  'list_tasks',
  'pause_task',
  'preview_task',
  'resume_task',
  'suggest_task',
  'update_task',
];

/** `levels` levels of objects and arrays, one inside the other, around a string. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('MCP: tools over the REST services', () => {
  let harness: TaskHarness;
  let owner: TestUser;
  let client: Client;

  beforeAll(async () => {
    harness = await startTaskHarness();
    owner = harness.owner;
    client = await connectMcp(harness.testApp, owner.auth);
  });

  afterAll(async () => {
    await client?.close();
    await harness.close();
  });

  it('should list the thirteen tools with schemas derived from the REST DTOs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const create = tools.find((tool) => tool.name === 'create_task')!;
    expect(create.inputSchema).toMatchObject({
      type: 'object',
      // search_query may be left out when pages are given: its description says so.
      required: [],
      properties: {
        search_query: {
          type: 'string',
          minLength: 10,
          maxLength: 500,
          description: expect.stringMatching(/^Required without pages/) as unknown,
        },
        name: { type: 'string', minLength: 1, maxLength: 200 },
        state: { enum: ['active', 'paused'] },
        notifications: { type: 'array' },
      },
    });
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const list = tools.find((tool) => tool.name === 'list_tasks')!;
    expect(list.inputSchema.properties).toMatchObject({
      state: { enum: ['active', 'paused', 'completed'] },
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      offset: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    });
    expect(list.outputSchema).toMatchObject({ properties: { items: { type: 'array' } } });
    expect(list.annotations).toMatchObject({ readOnlyHint: true });
    const remove = tools.find((tool) => tool.name === 'delete_task')!;
    expect(remove.inputSchema).toMatchObject({
      required: ['id'],
      properties: { id: { type: 'string', format: 'uuid' } },
    });
    expect(remove.annotations).toMatchObject({ destructiveHint: true });
    expect(remove.outputSchema).toMatchObject({
      type: 'object',
      properties: { id: expect.any(Object), deleted: expect.any(Object) },
    });
    const usage = tools.find((tool) => tool.name === 'get_usage')!;
    expect(usage.inputSchema.properties).toMatchObject({ month: { pattern: expect.any(String) } });
  });

  it('should create, read, update, pause, resume and delete a task as REST sees it', async () => {
    const { testApp } = harness;
    const created = await callTool(client, 'create_task', {
      search_query: uniqueQuery('created over mcp'),
      state: 'paused',
      name: 'From an agent',
    });
    expect(created.isError).toBeFalsy();
    const task = created.structuredContent as { id: string; name: string; state: string };
    expect(JSON.parse(textOf(created))).toEqual(task);
    const rest = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', owner.auth);
    expect(rest.body).toMatchObject({ id: task.id, name: 'From an agent', state: 'paused' });

    const read = await callTool(client, 'get_task', { id: task.id });
    expect(read.structuredContent).toEqual(rest.body);

    const listed = await callTool(client, 'list_tasks', { state: 'paused' });
    const items = (listed.structuredContent as { items: Array<{ id: string }> }).items;
    expect(items.map((item) => item.id)).toContain(task.id);

    const updated = await callTool(client, 'update_task', { id: task.id, name: 'Renamed' });
    expect(updated.structuredContent).toMatchObject({ name: 'Renamed' });
    const resumed = await callTool(client, 'resume_task', { id: task.id });
    expect(resumed.structuredContent).toMatchObject({ state: 'active' });
    expect(
      (await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', owner.auth)).body,
    ).toMatchObject({ name: 'Renamed', state: 'active' });
    const paused = await callTool(client, 'pause_task', { id: task.id });
    expect(paused.structuredContent).toMatchObject({ state: 'paused', next_run: null });
    // No alert stands on a task that never met its condition.
    const acknowledged = await callTool(client, 'acknowledge_task', { id: task.id });
    expect(acknowledged).toMatchObject({ isError: true });
    expect(textOf(acknowledged)).toBe('No alert to acknowledge');

    const deleted = await callTool(client, 'delete_task', { id: task.id });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.structuredContent).toEqual({ id: task.id, deleted: true });
    await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', owner.auth).expect(404);
    const again = await callTool(client, 'delete_task', { id: task.id });
    expect(again).toMatchObject({ isError: true });
    expect(textOf(again)).toBe('Task not found');
  });

  it('should execute a task and list its executions', async () => {
    const query = uniqueQuery('executed over mcp');
    harness.provider.script(query, checkReply({ conditionMet: false, answer: 'Not yet' }));
    const task = await harness.factory.task(owner, { search_query: query });
    const executed = await callTool(client, 'execute_task', { id: task.id });
    expect(executed.isError).toBeFalsy();
    const execution = executed.structuredContent as { id: string; status: string };
    expect(execution.status).toBe('pending');
    // After the answer, how to follow the run with the tools there are.
    expect(executed.content).toHaveLength(2);
    const followUp = executed.content[1];
    expect(followUp.type).toBe('text');
    const hint = followUp.type === 'text' ? followUp.text : '';
    expect(hint).toContain(execution.id);
    expect(hint).toContain(`list_executions {"task_id": "${task.id}"}`);
    expect(hint).toContain(`get_task {"id": "${task.id}"}`);
    const finished = await harness.api.waitForExecution(owner, task.id, execution.id);
    expect(finished).toMatchObject({ status: 'success', answer: 'Not yet' });

    const listed = await callTool(client, 'list_executions', { task_id: task.id, limit: 5 });
    const items = (listed.structuredContent as { items: Array<{ id: string }> }).items;
    expect(items[0]).toMatchObject({ id: execution.id, status: 'success' });
  });

  it('should suggest, preview and report the usage they cost', async () => {
    const prompt = uniqueQuery('tell me when the thing ships');
    harness.provider.script(prompt, suggestReply({ name: 'Thing ships' }));
    const suggested = await callTool(client, 'suggest_task', { prompt });
    expect(suggested.isError).toBeFalsy();
    expect(suggested.structuredContent).toMatchObject({ name: 'Thing ships' });

    const query = uniqueQuery('previewed over mcp');
    harness.provider.script(query, checkReply({ conditionMet: true, answer: 'It shipped' }));
    const previewed = await callTool(client, 'preview_task', {
      search_query: query,
      condition_description: 'The thing has shipped already',
    });
    expect(previewed.structuredContent).toMatchObject({
      condition_met: true,
      answer: 'It shipped',
    });

    const usage = await callTool(client, 'get_usage', {});
    const rest = await harness.testApp.http.get('/api/v1/usage').set('Authorization', owner.auth);
    expect(usage.structuredContent).toEqual(rest.body);
    expect((rest.body as { llm_calls: number }).llm_calls).toBeGreaterThanOrEqual(2);
  });

  it("should answer another user's task as not found", async () => {
    const task = await harness.factory.task(harness.stranger);
    for (const [name, args] of [
      ['get_task', { id: task.id }],
      ['update_task', { id: task.id, name: 'Mine now' }],
      ['delete_task', { id: task.id }],
      ['execute_task', { id: task.id }],
      ['list_executions', { task_id: task.id }],
    ] as const) {
      const result = await callTool(client, name, args);
      expect({ name, isError: result.isError, text: textOf(result) }).toEqual({
        name,
        isError: true,
        text: 'Task not found',
      });
    }
    const listed = await callTool(client, 'list_tasks');
    const ids = (listed.structuredContent as { items: Array<{ id: string }> }).items.map(
      (item) => item.id,
    );
    expect(ids).not.toContain(task.id);
  });

  it("should refuse arguments with the REST route's validation messages, naming the argument", async () => {
    const short = await callTool(client, 'create_task', { search_query: 'short' });
    expect(short.isError).toBe(true);
    const rest = await harness.testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', owner.auth)
      .send({ search_query: 'short' });
    const restIssues = rest.body.detail as Array<{ loc: Array<string | number> }>;
    expect(restIssues[0].loc).toEqual(['body', 'search_query']);
    expect(JSON.parse(textOf(short))).toEqual(
      restIssues.map((issue) => ({ ...issue, loc: ['search_query'] })),
    );

    const missingId = await callTool(client, 'get_task', {});
    expect(missingId.isError).toBe(true);
    expect(JSON.parse(textOf(missingId))).toEqual([
      { type: 'missing', loc: ['id'], msg: 'Field required', input: {} },
    ]);
    const badId = await callTool(client, 'get_task', { id: 'not-a-uuid' });
    expect(badId.isError).toBe(true);
    expect(JSON.parse(textOf(badId))).toEqual([
      expect.objectContaining({ type: 'uuid_parsing', loc: ['id'] }),
    ]);
    const badLimit = await callTool(client, 'list_tasks', { limit: 0 });
    expect(JSON.parse(textOf(badLimit))).toEqual([expect.objectContaining({ loc: ['limit'] })]);
    const badField = await callTool(client, 'suggest_task', {
      prompt: 'Watch the release notes',
      current_task: { name: 5 },
    });
    expect(JSON.parse(textOf(badField))).toEqual([
      expect.objectContaining({ loc: ['current_task', 'name'] }),
    ]);
  });

  it('should answer at most limit tasks, 50 by default and 200 at most', async () => {
    const user = await harness.factory.user();
    await Promise.all(
      Array.from({ length: 51 }, () =>
        harness.factory.task(user, { search_query: uniqueQuery('listed') }),
      ),
    );
    const own = await connectMcp(harness.testApp, user.auth);
    try {
      const itemsOf = async (args: Record<string, unknown>) =>
        ((await callTool(own, 'list_tasks', args)).structuredContent as { items: unknown[] }).items;
      expect(await itemsOf({})).toHaveLength(50);
      expect(await itemsOf({ limit: 200 })).toHaveLength(51);
      expect(await itemsOf({ limit: 10, offset: 45 })).toHaveLength(6);
      const tooMany = await callTool(own, 'list_tasks', { limit: 201 });
      expect(tooMany.isError).toBe(true);
      expect(JSON.parse(textOf(tooMany))).toEqual([
        expect.objectContaining({ type: 'less_than_equal', loc: ['limit'] }),
      ]);
    } finally {
      await own.close();
    }
  });

  it("should name the package and its version as the server's", () => {
    const { name, version } = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
    ) as { name: string; version: string };
    expect(client.getServerVersion()).toEqual({ name, version });
  });

  it('should refuse arguments nested deeper than 64 levels with an error result, never an internal error', async () => {
    const task = await harness.factory.task(owner);
    const tooDeep = (name: string) => ({
      type: 'value_error',
      loc: [name],
      msg: 'Arrays and objects may nest at most 64 levels',
      input: '[nested too deeply to echo]',
    });
    // The arguments object is the first level, as a REST body is.
    const fits = await callTool(client, 'create_task', {
      search_query: uniqueQuery('deep but not too deep'),
      state: 'paused',
      note: nested(63),
    });
    expect(fits.isError).toBeFalsy();
    const query = uniqueQuery('too deep');
    for (const [name, args, argument] of [
      ['create_task', { search_query: query, state: 'paused', note: nested(64) }, 'note'],
      ['create_task', { search_query: query, output_schema: nested(100) }, 'output_schema'],
      ['create_task', { search_query: nested(100) }, 'search_query'],
      ['update_task', { id: task.id, evidence: nested(100) }, 'evidence'],
      ['list_tasks', { state: nested(100) }, 'state'],
      ['get_task', { id: nested(100) }, 'id'],
      ['execute_task', { id: task.id, force: nested(100) }, 'force'],
    ] as const) {
      const result = await callTool(client, name, args);
      expect({
        name,
        argument,
        isError: result.isError,
        detail: JSON.parse(textOf(result)),
      }).toEqual({ name, argument, isError: true, detail: [tooDeep(argument)] });
    }
    const { rows } = await harness.testApp.db.query('SELECT 1 FROM tasks WHERE search_query = $1', [
      query,
    ]);
    expect(rows).toEqual([]);

    // The same message through the HTTP body reader, as any client sends it.
    const raw = await harness.testApp.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Authorization', owner.auth)
      .send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'create_task',
          arguments: { search_query: query, output_schema: nested(100) },
        },
      });
    const answer = raw.body as { result?: { isError?: boolean }; error?: { code: number } };
    expect([raw.status, answer.result?.isError ?? answer.error?.code]).toEqual(
      raw.status === 200 ? [200, true] : [400, -32602],
    );
  });
});
