import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { AuthenticatedUser } from '../../src/auth/authenticated-user';
import { deliveryJobId, toDeliveryAttempt } from '../../src/notifications/delivery/delivery-job';
import { DeliveryPlanner } from '../../src/notifications/delivery/delivery-planner';
import { TaskChanges } from '../../src/tasks/task-changes.service';
import { UsersService } from '../../src/users/users.service';
import { startServiceContext, type ServiceContext } from '../support/service-context';

/** The statements sent to PostgreSQL by the work run inside `counted`, whatever connection. */
const counting = new AsyncLocalStorage<string[]>();

async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const result = await counting.run(statements, work);
  return { result, statements };
}

describe('The delivery gate (service tier: real database, set clock)', () => {
  let context: ServiceContext;
  let planner: DeliveryPlanner;
  let caller: AuthenticatedUser;
  const cooldownEnd = new Date('2026-11-27T07:00:00Z');

  beforeAll(async () => {
    const query = Client.prototype.query;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: Parameters<Client['query']>
    ) {
      const [config] = args as unknown[];
      counting
        .getStore()
        ?.push(typeof config === 'string' ? config : (config as { text: string }).text);
      return (query as (...rest: unknown[]) => unknown).apply(this, args) as ReturnType<
        Client['query']
      >;
    });
    context = await startServiceContext({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    planner = context.get(DeliveryPlanner);
    const user = await context.get(UsersService).syncFromIdentity({
      subject: `user_${randomUUID()}`,
      email: 'gate@example.com',
      emailVerified: true,
      adminClaim: false,
    });
    caller = { user, id: user.id, isAdmin: false, credential: 'jwt', apiKeyId: null };
    context.clock.set(new Date(cooldownEnd.getTime() + 60_000));
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await context.close();
  });

  /**
   * A task with a webhook of its own, one met execution whose alert waited for the task's
   * cooldown (`held`), and the job that releases it at the cooldown's end.
   */
  async function releasedAlert() {
    const task = await context.get(TaskChanges).create(caller, {
      search_query: `Has release ${randomUUID()} shipped?`,
      state: 'paused',
      notifications: [{ type: 'webhook', url: `http://127.0.0.1:9/${randomUUID()}` }],
    });
    const { rows } = await context.db.query<{ id: string }>(
      `INSERT INTO executions (task_id, status, trigger, completed_at, condition_met, answer, reasoning, result)
       VALUES ($1, 'success', 'manual', $2, true, 'Shipped.', 'The notes say so.', '{}') RETURNING id`,
      [task.id, new Date(cooldownEnd.getTime() - 60_000)],
    );
    const executionId = rows[0].id;
    const deliveryId = deliveryJobId(executionId, 'webhook');
    await context.db.query(
      `INSERT INTO notification_deliveries (id, execution_id, task_id, channel, event, attempt,
         state, job_id, held_until, hold_reason, cooldown_until)
       VALUES ($1, $2, $3, 'webhook', 'condition_met', 0, 'held', $4, $5, 'cooldown', $5)`,
      [deliveryId, executionId, task.id, randomUUID(), cooldownEnd],
    );
    return toDeliveryAttempt({
      id: randomUUID(),
      data: {
        executionId,
        taskId: task.id,
        channel: 'webhook',
        event: 'condition_met',
        deliveryId,
        attempt: 1,
        cooldownUntil: cooldownEnd.toISOString(),
      },
    });
  }

  it('should read the cooldowns of a batch in as many statements for three releases as for one', async () => {
    const alert = await releasedAlert();
    const one = await counted(() => planner.plan([alert]));
    const alerts = [await releasedAlert(), await releasedAlert(), await releasedAlert()];
    const three = await counted(() => planner.plan(alerts));

    // Each alert waited alone: each goes, folding itself only.
    expect(three.result.map((claim) => claim.content.folded)).toEqual([1, 1, 1]);
    expect(one.result.map((claim) => claim.content.folded)).toEqual([1]);
    expect(three.statements).toHaveLength(one.statements.length);
  });
});
