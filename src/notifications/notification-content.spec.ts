import {
  renderConditionMetEmail,
  webhookBody,
  type NotificationContent,
} from './notification-content';

function content(overrides: Partial<NotificationContent['task']> = {}): NotificationContent {
  return {
    task: {
      id: 'task-1',
      name: 'Price <watch>',
      searchQuery: 'price of x',
      conditionDescription: 'price drops below 10 & stays',
      ...overrides,
    },
    execution: {
      id: 'execution-1',
      conditionMet: true,
      answer: 'It is <b>9</b> now',
      reasoning: 'Line one.\n\nLine "two".',
      groundingSources: [
        { uri: 'https://shop.example.com/x?a=1&b=2', title: 'Shop <x>' },
        { uri: 'javascript:alert(1)', title: 'Bad' },
      ],
      completedAt: new Date('2026-02-03T04:05:06.789Z'),
    },
  };
}

describe('renderConditionMetEmail', () => {
  it('should name the task in the subject on one line when the name has line breaks', () => {
    expect(renderConditionMetEmail(content()).subject).toBe(
      '[Monitor] Price <watch>: condition met',
    );
    expect(renderConditionMetEmail(content({ name: 'a\r\nBcc: x@y.z' })).subject).toBe(
      '[Monitor] a Bcc: x@y.z: condition met',
    );
  });

  it('should escape everything in the HTML body when the model sends markup', () => {
    const { html } = renderConditionMetEmail(content());
    expect(html).toContain('It is &lt;b&gt;9&lt;/b&gt; now');
    expect(html).toContain('Line &quot;two&quot;.');
    expect(html).toContain('<a href="https://shop.example.com/x?a=1&amp;b=2">Shop &lt;x&gt;</a>');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('2026-02-03 04:05:06 UTC');
  });

  it('should list the answer, reasoning, sources and time in the text body', () => {
    const { text } = renderConditionMetEmail(content());
    expect(text).toContain('It is <b>9</b> now');
    expect(text).toContain('Line one.\n\nLine "two".');
    expect(text).toContain('- Shop <x>: https://shop.example.com/x?a=1&b=2');
    expect(text).toContain('Checked at 2026-02-03 04:05:06 UTC.');
  });
});

describe('webhookBody', () => {
  it('should have exactly the documented shape', () => {
    expect(JSON.parse(webhookBody(content()))).toEqual({
      type: 'task.condition_met',
      timestamp: '2026-02-03T04:05:06.789Z',
      data: {
        task: {
          id: 'task-1',
          name: 'Price <watch>',
          search_query: 'price of x',
          condition_description: 'price drops below 10 & stays',
        },
        execution: {
          id: 'execution-1',
          condition_met: true,
          answer: 'It is <b>9</b> now',
          reasoning: 'Line one.\n\nLine "two".',
          grounding_sources: content().execution.groundingSources,
          completed_at: '2026-02-03T04:05:06.789Z',
        },
      },
    });
  });
});
