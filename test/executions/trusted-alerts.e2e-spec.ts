import { randomUUID } from 'node:crypto';
import { expectDetail } from '../support/errors';
import { waitForSends, waitForSettledDeliveries } from '../notifications/notification-test-helpers';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import type { CheckReplyOptions } from '../support/wire-stand-in';
import {
  startTaskHarness,
  uniqueQuery,
  type ExecutionBody,
  type TaskBody,
  type TaskHarness,
} from '../tasks/task-api';

/** Gemini's grounding sources are redirect links whose title is the site's domain. */
function redirect(domain: string): { uri: string; title: string } {
  return {
    uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${randomUUID()}`,
    title: domain,
  };
}

const PRICE_SCHEMA = {
  type: 'object',
  properties: {
    price: { type: 'number', description: 'The price in USD' },
    stage: { type: 'string', enum: ['beta', 'stable'] },
  },
  required: ['price'],
};

interface WebhookBody {
  type: string;
  data: {
    execution: Record<string, unknown>;
    retracted_execution_id?: string | null;
  };
}

describe('Alerts people can trust: values, evidence, confirmation and retraction', () => {
  let harness: TaskHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    harness = await startTaskHarness({ WEBHOOK_RETRY_SCHEDULE: '200ms' });
  });

  afterAll(async () => {
    await harness.close();
    await receiver.stop();
  });

  async function createTask(
    query: string,
    path: string,
    body: Record<string, unknown>,
  ): Promise<TaskBody> {
    return harness.factory.task(harness.owner, {
      search_query: query,
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
      ...body,
    });
  }

  /** Runs the task now and waits for the run to end. */
  async function run(taskId: string): Promise<ExecutionBody> {
    const pending = await harness.api.execute(harness.owner, taskId);
    return harness.api.waitForExecution(harness.owner, taskId, pending.id);
  }

  function reply(options: CheckReplyOptions) {
    return harness.gemini.checkReply({ nextCheckAt: null, ...options });
  }

  /** The webhook bodies received on `path` once `count` have arrived. */
  async function webhooks(path: string, count: number): Promise<WebhookBody[]> {
    const received = await waitFor(
      async () => {
        const requests = receiver.requestsTo(path);
        return requests.length >= count ? requests : undefined;
      },
      { what: `${count} webhook(s) on ${path}` },
    );
    return received.map((request: ReceivedWebhook) => JSON.parse(request.body) as WebhookBody);
  }

  /**
   * The events of the task's send records once there are `count` of them: a receiver has its
   * body before the worker records the send.
   */
  async function sendEvents(taskId: string, count: number): Promise<string[]> {
    return (await waitForSends(harness.testApp, taskId, count)).map((row) => row.event);
  }

  it('should keep the schema as sent and list changes in its property order', async () => {
    const query = uniqueQuery('release stage');
    const schema = {
      type: 'object',
      // Longer name first: an order PostgreSQL's jsonb would not keep.
      properties: { release_stage: { type: 'string' }, price: { type: 'number' } },
    };
    harness.provider.script(
      query,
      reply({ values: { release_stage: 'beta', price: 10 }, sources: [redirect('shop.example')] }),
      reply({
        values: { release_stage: 'stable', price: 12 },
        sources: [redirect('shop.example')],
      }),
    );
    const task = await createTask(query, `/order-${randomUUID()}`, {
      notify_behavior: 'on_change',
      output_schema: schema,
    });
    const read = await harness.api.get(harness.owner, task.id);
    const stored = read.output_schema as { properties: Record<string, unknown> };
    expect(Object.keys(stored.properties)).toEqual(['release_stage', 'price']);
    await run(task.id);
    const changed = await run(task.id);
    expect(changed.changes).toEqual([
      { field: 'release_stage', before: 'beta', after: 'stable' },
      { field: 'price', before: 10, after: 12 },
    ]);
  });

  it('should extract values in the one provider call and send values_changed from the second run when notify_behavior is on_change', async () => {
    const query = uniqueQuery('price watch');
    const path = `/values-${randomUUID()}`;
    harness.provider.script(
      query,
      reply({ values: { price: '10', stage: 'beta' }, sources: [redirect('shop.example')] }),
      reply({ values: { price: 12.5, stage: 'beta' }, sources: [redirect('shop.example')] }),
      reply({ values: { price: 12.5, stage: 'beta' }, sources: [redirect('shop.example')] }),
    );
    const task = await createTask(query, path, {
      notify_behavior: 'on_change',
      output_schema: PRICE_SCHEMA,
    });
    expect(task.output_schema).toEqual(PRICE_SCHEMA);

    const baseline = await run(task.id);
    expect(baseline).toMatchObject({
      status: 'success',
      values: { price: 10, stage: 'beta' },
      changes: [],
      claimed_met: false,
      evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: true },
    });
    const changed = await run(task.id);
    expect(changed.changes).toEqual([{ field: 'price', before: 10, after: 12.5 }]);
    const same = await run(task.id);
    expect(same.changes).toEqual([]);

    // One model call per check, and the schema travels with the task as data.
    const calls = harness.provider.requestsFor(query);
    expect(calls).toHaveLength(3);
    expect(calls[0].promptText).toContain('"output_schema"');
    expect(calls[0].systemText).toContain('- values:');

    const [body] = await webhooks(path, 1);
    expect(body.type).toBe('task.values_changed');
    expect(body.data.execution).toMatchObject({
      id: changed.id,
      claimed_met: false,
      condition_met: false,
      evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: true },
      values: { price: 12.5, stage: 'beta' },
      changes: [{ field: 'price', before: 10, after: 12.5 }],
    });
    await waitForSettledDeliveries(harness.testApp, task.id);
    expect(receiver.requestsTo(path)).toHaveLength(1);
    expect(await sendEvents(task.id, 1)).toEqual(['values_changed']);
    expect((await harness.api.get(harness.owner, task.id)).state).toBe('paused');
  });

  it('should fail the execution with a clear message when the values do not fit, and run again afterwards', async () => {
    const query = uniqueQuery('bad values');
    harness.provider.script(
      query,
      reply({ values: { price: 'about ten dollars', stage: 'beta' } }),
      reply({ values: { price: 10, stage: 'gamma' } }),
      reply({ values: { price: 9 } }),
    );
    const task = await createTask(query, `/bad-${randomUUID()}`, { output_schema: PRICE_SCHEMA });
    const first = await run(task.id);
    expect(first).toMatchObject({
      status: 'failed',
      error_message: 'Reply does not match output_schema: "price" must be a number',
      values: null,
      changes: null,
    });
    expect((await run(task.id)).error_message).toBe(
      'Reply does not match output_schema: "stage" must be one of "beta", "stable"',
    );
    expect(await run(task.id)).toMatchObject({
      status: 'success',
      values: { price: 9, stage: null },
      changes: [],
    });
  });

  it('should hold a met verdict back until the evidence rule and the confirmations are satisfied', async () => {
    const query = uniqueQuery('release watch');
    const path = `/confirm-${randomUUID()}`;
    const met = { conditionMet: true, currentState: { released: true } };
    harness.provider.script(
      query,
      // One trusted domain only: the model claims it, the evidence rule does not.
      reply({ ...met, sources: [redirect('www.reuters.com')] }),
      reply({
        ...met,
        sources: [redirect('reuters.com'), { uri: 'https://apnews.com/a', title: 'AP' }],
      }),
      reply({
        ...met,
        sources: [redirect('reuters.com'), { uri: 'https://apnews.com/b', title: 'AP' }],
      }),
    );
    const evidence = { min_domains: 2, trusted_domains: ['reuters.com'], confirmations: 2 };
    const task = await createTask(query, path, { state: 'active', evidence });
    expect(task.evidence).toEqual(evidence);
    await harness.api.waitForIdle(task.id);
    const [shortfall] = await harness.api.executions(harness.owner, task.id);
    expect(shortfall).toMatchObject({
      claimed_met: true,
      condition_met: false,
      evidence: { distinct_domains: 1, trusted_matches: 1, satisfied: false },
    });

    const started = Date.now();
    const waiting = await run(task.id);
    expect(waiting).toMatchObject({
      claimed_met: true,
      condition_met: true,
      evidence: { distinct_domains: 2, trusted_matches: 1, satisfied: true },
      notification: { notify: false, reason: 'awaiting_confirmation' },
    });
    // The agent asked for nothing sooner: the confirmation is due after SCHEDULER_MIN_INTERVAL.
    const waitingTask = await harness.api.get(harness.owner, task.id);
    expect(waitingTask.state).toBe('active');
    const due = new Date(waitingTask.next_run as string).getTime() - started;
    expect(due).toBeGreaterThan(14 * 60_000);
    expect(due).toBeLessThan(16 * 60_000);

    const confirmed = await run(task.id);
    expect(confirmed.notification).toMatchObject({ notify: true, completes_task: true });
    const [body] = await webhooks(path, 1);
    expect(body.type).toBe('task.condition_met');
    expect(body.data.execution).toMatchObject({ id: confirmed.id, claimed_met: true });
    expect(await harness.api.get(harness.owner, task.id)).toMatchObject({
      state: 'completed',
      next_run: null,
    });
    // The met-condition list reads the one verdict: the shortfall is not in it.
    const listed = await harness.testApp.http
      .get(`/api/v1/tasks/${task.id}/notifications`)
      .set('Authorization', harness.owner.auth)
      .expect(200);
    expect((listed.body as Array<{ id: string }>).map((item) => item.id)).toEqual([
      confirmed.id,
      waiting.id,
    ]);
  });

  it('should count sites by registrable domain and trust a source by its host', async () => {
    const query = uniqueQuery('site count');
    harness.provider.script(
      query,
      reply({
        conditionMet: true,
        sources: [
          redirect('news.bbc.co.uk'),
          { uri: 'https://sport.bbc.co.uk/a', title: 'Sport' },
          { uri: 'https://alice.github.io/post', title: 'Alice' },
          { uri: 'https://bob.github.io/post', title: 'Bob' },
        ],
      }),
    );
    const task = await createTask(query, `/sites-${randomUUID()}`, {
      evidence: { min_domains: 3, trusted_domains: ['news.bbc.co.uk'] },
    });
    // Three sites (bbc.co.uk, alice.github.io, bob.github.io); one of them through a trusted host.
    expect(await run(task.id)).toMatchObject({
      claimed_met: true,
      condition_met: true,
      evidence: { distinct_domains: 3, trusted_matches: 1, satisfied: true },
    });
  });

  it('should withdraw a standing alert once after N not-met runs, but not for an evidence shortfall', async () => {
    const query = uniqueQuery('stock watch');
    const path = `/retract-${randomUUID()}`;
    const sources = [redirect('shop.example')];
    const met = reply({ conditionMet: true, currentState: { in_stock: true }, sources });
    const notMet = reply({ conditionMet: false, currentState: { in_stock: false }, sources });
    harness.provider.script(
      query,
      met,
      met,
      // Claimed, but no source: an evidence shortfall, which withdraws nothing.
      reply({ conditionMet: true, currentState: { in_stock: true }, sources: [] }),
      notMet,
      notMet,
      notMet,
      met,
      met,
    );
    const task = await createTask(query, path, {
      notify_behavior: 'always',
      evidence: { confirmations: 2 },
    });
    const runs: ExecutionBody[] = [];
    for (let index = 0; index < 6; index++) runs.push(await run(task.id));

    expect(runs.map((execution) => execution.notification?.reason)).toEqual([
      'awaiting_confirmation',
      'condition_met',
      'condition_not_met',
      'condition_not_met',
      'condition_not_met',
      'condition_not_met',
    ]);
    expect(runs[2]).toMatchObject({ claimed_met: true, condition_met: false });
    expect(runs[4].notification).toMatchObject({
      retraction: { retracted_execution_id: runs[1].id, channels: ['webhook'] },
    });
    expect(runs[3].notification).not.toHaveProperty('retraction');
    expect(runs[5].notification).not.toHaveProperty('retraction');
    expect((await harness.api.get(harness.owner, task.id)).last_known_state).toBeNull();

    // The same state as the withdrawn alert notifies again, once confirmed.
    runs.push(await run(task.id), await run(task.id));
    const bodies = await webhooks(path, 3);
    expect(bodies.map((body) => body.type)).toEqual([
      'task.condition_met',
      'task.condition_retracted',
      'task.condition_met',
    ]);
    expect(bodies[1].data.retracted_execution_id).toBe(runs[1].id);
    expect(bodies[1].data.execution).toMatchObject({
      id: runs[4].id,
      claimed_met: false,
      condition_met: false,
      values: null,
      changes: null,
    });
    expect(bodies[2].data.execution.id).toBe(runs[7].id);
    expect(await sendEvents(task.id, 3)).toEqual([
      'condition_met',
      'condition_retracted',
      'condition_met',
    ]);
  });

  describe('task fields', () => {
    it.each([
      [
        { output_schema: { type: 'object', properties: {} } },
        'Invalid output_schema: properties must hold 1 to 20 properties',
      ],
      [
        { output_schema: { type: 'object', properties: { a: { $ref: '#/definitions/x' } } } },
        'Invalid output_schema: property "a" may hold only type, description and enum, not "$ref" (no nesting, no $ref)',
      ],
      [{ output_schema: 'price' }, 'Invalid output_schema: must be a JSON object'],
      [
        { evidence: { min_domains: 9 } },
        'Invalid evidence: min_domains must be an integer from 1 to 5',
      ],
      [
        { evidence: { confirmations: 0 } },
        'Invalid evidence: confirmations must be an integer from 1 to 3',
      ],
      [{ notify_behavior: 'on_change' }, 'notify_behavior on_change requires an output_schema'],
    ])('should answer 400 when the body is %j', async (body, detail) => {
      const response = await harness.testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', harness.owner.auth)
        .send({ search_query: uniqueQuery('bad fields'), ...body });
      expectDetail(response, 400, detail);
    });

    it('should answer 400 for a schema nested as deep as the body allows, and 422 past that, never 500', async () => {
      const post = (raw: string) =>
        harness.testApp.http
          .post('/api/v1/tasks')
          .set('Authorization', harness.owner.auth)
          .set('Content-Type', 'application/json')
          .send(raw);
      const query = () => uniqueQuery('deep');
      // The body, output_schema, properties and `a` are four levels: 60 more is the body's limit.
      const allowed = 60;
      const schema = await post(
        `{"search_query":"${query()}","output_schema":{"type":"object","properties":{"a":${'{"a":'.repeat(allowed)}1${'}'.repeat(allowed)}}}}`,
      );
      expect(schema.status).toBe(400);
      expect((schema.body as { detail: string }).detail).toMatch(/^Invalid output_schema: /);
      const notifications = await post(
        `{"search_query":"${query()}","notifications":${'['.repeat(allowed)}${']'.repeat(allowed)}}`,
      );
      expect(notifications.status).toBe(400);

      const depth = 15_000;
      for (const field of ['output_schema', 'notifications', 'evidence']) {
        const answer = await post(
          `{"search_query":"${query()}","${field}":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
        );
        expect(answer.status).toBe(422);
        expect((answer.body as { detail: Array<{ type: string }> }).detail[0].type).toBe(
          'json_invalid',
        );
      }
    });

    it('should update, clear with null, refuse to leave on_change without a schema, and copy on fork', async () => {
      const task = await harness.factory.task(harness.owner, {
        search_query: uniqueQuery('fields'),
        output_schema: PRICE_SCHEMA,
        evidence: { trusted_domains: ['WWW.Example.COM'] },
      });
      expect(task.evidence).toEqual({
        min_domains: 1,
        trusted_domains: ['example.com'],
        confirmations: 1,
      });
      const put = (body: Record<string, unknown>) =>
        harness.testApp.http
          .put(`/api/v1/tasks/${task.id}`)
          .set('Authorization', harness.owner.auth)
          .send(body);
      expect((await put({ notify_behavior: 'on_change' })).status).toBe(200);
      expectDetail(
        await put({ output_schema: null }),
        400,
        'notify_behavior on_change requires an output_schema',
      );
      const cleared = await put({ notify_behavior: 'once', output_schema: null, evidence: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ output_schema: null, evidence: null });

      await put({ output_schema: PRICE_SCHEMA, evidence: { min_domains: 2 } }).expect(200);
      const fork = await harness.testApp.http
        .post(`/api/v1/tasks/${task.id}/fork`)
        .set('Authorization', harness.owner.auth)
        .send({})
        .expect(200);
      expect(fork.body).toMatchObject({
        output_schema: PRICE_SCHEMA,
        evidence: { min_domains: 2, trusted_domains: [], confirmations: 1 },
      });
    });
  });
});
