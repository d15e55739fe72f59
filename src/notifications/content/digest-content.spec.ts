import { digestWebhookPayload, fitDigestLines } from './digest-content';

describe('digestWebhookPayload', () => {
  it('should carry the period and each event data as it would have been sent, with its type and time', () => {
    const events = [
      {
        type: 'task.condition_met',
        timestamp: '2026-11-26T06:10:00.000Z',
        data: { task: { id: 't1' }, folded: 2 },
      },
      {
        type: 'task.condition_retracted',
        timestamp: '2026-11-26T06:20:00.000Z',
        data: { task: { id: 't1' }, retracted_execution_id: 'e1' },
      },
    ];
    expect(
      digestWebhookPayload(
        {
          period_start: new Date('2026-11-25T07:00:00Z'),
          period_end: new Date('2026-11-26T07:00:00Z'),
        },
        new Date('2026-11-26T07:00:05Z'),
        events,
      ),
    ).toEqual({
      type: 'digest',
      timestamp: '2026-11-26T07:00:05.000Z',
      data: {
        period_start: '2026-11-25T07:00:00.000Z',
        period_end: '2026-11-26T07:00:00.000Z',
        events: [
          {
            type: 'task.condition_met',
            timestamp: '2026-11-26T06:10:00.000Z',
            task: { id: 't1' },
            folded: 2,
          },
          {
            type: 'task.condition_retracted',
            timestamp: '2026-11-26T06:20:00.000Z',
            task: { id: 't1' },
            retracted_execution_id: 'e1',
          },
        ],
      },
    });
  });
});

describe('fitDigestLines', () => {
  const lines = ['first event', 'second event', 'third event', 'fourth event'];

  it('should keep every line when they fit', () => {
    expect(fitDigestLines({ lines, maxLength: 1000 })).toBe(lines.join('\n'));
  });

  it('should summarise the rest as "and N more" when the lines exceed the limit', () => {
    const text = fitDigestLines({ lines, maxLength: 40 });
    expect(text).toBe('first event\nsecond event\nand 2 more');
    expect(text.length).toBeLessThanOrEqual(40);
  });

  it('should count with the channel measure when it counts bytes', () => {
    const bytes = (text: string) => Buffer.byteLength(text);
    const text = fitDigestLines({ lines: ['é'.repeat(10), 'x'], maxLength: 15, measure: bytes });
    expect(text).toBe('and 2 more');
  });
});
