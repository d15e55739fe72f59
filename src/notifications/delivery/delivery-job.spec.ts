import {
  attemptJobId,
  deliveryJobId,
  RETRY_JITTER,
  retryDelayMs,
  toDeliveryAttempt,
  webhookIdFor,
} from './delivery-job';

describe('delivery jobs', () => {
  const schedule = [5_000, 300_000, 1_800_000];

  it('should give the scheduled delay within ±10% when attempts remain', () => {
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(5_000 * (1 - RETRY_JITTER));
    expect(retryDelayMs(schedule, 2, () => 1)).toBe(300_000 * (1 + RETRY_JITTER));
    expect(retryDelayMs(schedule, 3, () => 0.5)).toBe(1_800_000);
  });

  it('should give null when the schedule is exhausted', () => {
    expect(retryDelayMs(schedule, 4)).toBeNull();
    expect(retryDelayMs([], 1)).toBeNull();
  });

  it('should keep the ids of queued deliveries when deriving a delivery job id', () => {
    const execution = '6f1c1a52-6a0b-4f2e-9d51-3c1f5f0f2a10';
    expect(deliveryJobId(execution, 'webhook')).toBe('fe389f5e-17a9-5738-a41c-af545801eb81');
    expect(deliveryJobId(execution, 'webhook', 'condition_met')).toBe(
      'fe389f5e-17a9-5738-a41c-af545801eb81',
    );
    expect(deliveryJobId(execution, 'email', 'check_failing')).toBe(
      '47619153-067b-595e-a0d3-494d37035f80',
    );
  });

  it('should derive the same job id for the same attempt and different ones otherwise', () => {
    const delivery = '6f1c1a52-6a0b-4f2e-9d51-3c1f5f0f2a10';
    expect(attemptJobId(delivery, 2)).toBe(attemptJobId(delivery, 2));
    expect(attemptJobId(delivery, 2)).not.toBe(attemptJobId(delivery, 3));
    expect(attemptJobId(delivery, 2)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('should treat a job without attempt data as the first condition-met attempt of the delivery it names', () => {
    const job = {
      id: '6f1c1a52-6a0b-4f2e-9d51-3c1f5f0f2a10',
      data: { executionId: 'e', taskId: 't', channel: 'webhook' as const },
    };
    expect(toDeliveryAttempt(job)).toEqual({
      jobId: job.id,
      deliveryId: job.id,
      executionId: 'e',
      taskId: 't',
      channel: 'webhook',
      event: 'condition_met',
      attempt: 1,
      webhookId: webhookIdFor(job.id),
    });
    const later = toDeliveryAttempt({
      id: 'other-job',
      data: { ...job.data, deliveryId: job.id, attempt: 3, webhookId: 'msg_x' },
    });
    expect(later).toMatchObject({
      jobId: 'other-job',
      deliveryId: job.id,
      attempt: 3,
      webhookId: 'msg_x',
    });
  });
});
