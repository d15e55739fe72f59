import {
  escapeWithin,
  messageParts,
  renderEmail,
  webhookBody,
  type NotificationContent,
} from './notification-content';

function content(overrides: Partial<NotificationContent['task']> = {}): NotificationContent {
  return {
    event: 'condition_met',
    task: {
      id: 'task-1',
      name: 'Price <watch>',
      searchQuery: 'price of x',
      conditionDescription: 'price drops below 10 & stays',
      ...overrides,
    },
    execution: {
      id: 'execution-1',
      status: 'success',
      conditionMet: true,
      errorMessage: null,
      answer: 'It is <b>9</b> now',
      reasoning: 'Line one.\n\nLine "two".',
      groundingSources: [
        { uri: 'https://shop.example.com/x?a=1&b=2', title: 'Shop <x>' },
        { uri: 'javascript:alert(1)', title: 'Bad' },
      ],
      completedAt: new Date('2026-02-03T04:05:06.789Z'),
    },
    consecutiveFailures: 0,
    occurredAt: new Date('2026-02-03T04:05:06.789Z'),
  };
}

describe('renderConditionMetEmail', () => {
  it('should name the task in the subject on one line when the name has line breaks', () => {
    expect(renderEmail(content()).subject).toBe('[Monitor] Price <watch>: condition met');
    expect(renderEmail(content({ name: 'a\r\nBcc: x@y.z' })).subject).toBe(
      '[Monitor] a Bcc: x@y.z: condition met',
    );
  });

  it('should escape everything in the HTML body when the model sends markup', () => {
    const { html } = renderEmail(content());
    expect(html).toContain('It is &lt;b&gt;9&lt;/b&gt; now');
    expect(html).toContain('Line &quot;two&quot;.');
    expect(html).toContain('<a href="https://shop.example.com/x?a=1&amp;b=2">Shop &lt;x&gt;</a>');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('2026-02-03 04:05:06 UTC');
  });

  it('should list the answer, reasoning, sources and time in the text body', () => {
    const { text } = renderEmail(content());
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
          grounding_sources: content().execution?.groundingSources,
          completed_at: '2026-02-03T04:05:06.789Z',
        },
      },
    });
  });
});

describe('webhookBody for streak and test events', () => {
  const failing: NotificationContent = {
    ...content(),
    event: 'check_failing',
    execution: {
      ...content().execution!,
      status: 'failed',
      conditionMet: null,
      errorMessage: 'Provider timed out',
    },
    consecutiveFailures: 3,
  };

  it('should carry the execution status, error and streak when the event is check_failing', () => {
    expect(JSON.parse(webhookBody(failing))).toEqual({
      type: 'task.check_failing',
      timestamp: '2026-02-03T04:05:06.789Z',
      data: {
        task: expect.objectContaining({ id: 'task-1' }),
        execution: {
          id: 'execution-1',
          status: 'failed',
          error_message: 'Provider timed out',
          completed_at: '2026-02-03T04:05:06.789Z',
        },
        consecutive_failures: 3,
      },
    });
  });

  it('should carry the task only when the event is a test', () => {
    const body = JSON.parse(webhookBody({ ...content(), event: 'test', execution: null }));
    expect(body).toEqual({
      type: 'task.test',
      timestamp: '2026-02-03T04:05:06.789Z',
      data: { task: expect.objectContaining({ id: 'task-1' }) },
    });
  });

  it('should say what happened in the subject when the event is check_failing', () => {
    expect(renderEmail(failing).subject).toBe('[Monitor] Price <watch>: checks are failing');
    expect(renderEmail(failing).html).toContain('Provider timed out');
  });
});

describe('messageParts', () => {
  it('should keep at most five web sources when the model sends more', () => {
    const many = Array.from({ length: 8 }, (_, index) => ({
      uri: `https://example.com/${index}`,
      title: `Source ${index}`,
    }));
    const parts = messageParts({
      ...content(),
      execution: { ...content().execution!, groundingSources: many },
    });
    expect(parts.sources.map((source) => source.uri)).toEqual(many.slice(0, 5).map((s) => s.uri));
  });
});

describe('escapeWithin', () => {
  it('should keep the text whole when it fits', () => {
    expect(escapeWithin('a<b', 10, (c) => (c === '<' ? '&lt;' : c))).toBe('a&lt;b');
  });

  it('should cut without splitting an escape and end with an ellipsis when it is too long', () => {
    const cut = escapeWithin('<<<<', 10, (c) => (c === '<' ? '&lt;' : c));
    expect(cut).toBe('&lt;&lt;…');
    expect(cut.length).toBeLessThanOrEqual(10);
  });
});
