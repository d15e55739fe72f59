import { renderEmail } from './email-content';
import { escapeWithin, messageParts, type NotificationContent } from './notification-content';
import { webhookBody } from './webhook-body';

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
      claimedMet: true,
      evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: true },
      values: null,
      changes: null,
      errorMessage: null,
      answer: 'It is <b>9</b> now',
      reasoning: 'Line one.\n\nLine "two".',
      groundingSources: [
        { uri: 'https://shop.example.com/x?a=1&b=2', title: 'Shop <x>' },
        { uri: 'javascript:alert(1)', title: 'Bad' },
      ],
      pageResults: null,
      verdictExecutionId: 'execution-1',
      completedAt: new Date('2026-02-03T04:05:06.789Z'),
    },
    consecutiveFailures: 0,
    retractedExecutionId: null,
    repeat: null,
    folded: null,
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
          claimed_met: true,
          evidence: { distinct_domains: 1, trusted_matches: 0, satisfied: true },
          values: null,
          changes: null,
          page_results: null,
          verdict_execution_id: 'execution-1',
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
      claimedMet: null,
      evidence: null,
      errorMessage: 'Provider timed out',
      verdictExecutionId: null,
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
          claimed_met: null,
          evidence: null,
          values: null,
          changes: null,
          page_results: null,
          verdict_execution_id: null,
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

describe('values_changed and condition_retracted', () => {
  it('should carry the verdict, values and changes and name the withdrawn execution when retracted', () => {
    const body = JSON.parse(
      webhookBody({
        ...content(),
        event: 'condition_retracted',
        retractedExecutionId: 'execution-0',
        execution: {
          ...content().execution!,
          conditionMet: false,
          claimedMet: false,
          values: { price: 12 },
          changes: [{ field: 'price', before: 9, after: 12 }],
        },
      }),
    );
    expect(body.type).toBe('task.condition_retracted');
    expect(body.data.retracted_execution_id).toBe('execution-0');
    expect(body.data.execution).toMatchObject({
      condition_met: false,
      claimed_met: false,
      values: { price: 12 },
      changes: [{ field: 'price', before: 9, after: 12 }],
    });
  });

  it('should say the alert is withdrawn in the email subject and body', () => {
    const email = renderEmail({ ...content(), event: 'condition_retracted' });
    expect(email.subject).toBe('[Monitor] Price <watch>: alert withdrawn');
    expect(email.text).toContain('The earlier alert is withdrawn: the condition is no longer met.');
  });

  it('should list the changes in the email when values changed', () => {
    const email = renderEmail({
      ...content(),
      event: 'values_changed',
      execution: {
        ...content().execution!,
        changes: [{ field: 'price', before: 10, after: 9 }],
      },
    });
    expect(email.subject).toBe('[Monitor] Price <watch>: values changed');
    expect(email.text).toContain('Changes:\nprice: 10 → 9');
  });
});

describe('page tasks', () => {
  const fetchedAt = '2026-02-03T04:05:00.000Z';
  function pageTask(): NotificationContent {
    const base = content();
    return {
      ...base,
      execution: {
        ...base.execution!,
        answer: 'https://shop.example.com/x changed: 4 lines added, 1 removed',
        groundingSources: [{ uri: 'https://other.example.com/', title: 'Other' }],
        verdictExecutionId: 'execution-1',
        pageResults: [
          {
            url: 'https://shop.example.com/x',
            render: 'http',
            final_url: 'https://shop.example.com/x?a=1&b=2',
            status: 'changed',
            http_status: 200,
            title: 'Shop <x>',
            error: null,
            added: ['Price: 9', 'In <stock>', 'Ships\ttoday', 'Fourth line'],
            removed: ['Price: 12'],
            new_items: null,
            values: null,
            value_errors: null,
            fetched_at: fetchedAt,
          },
          {
            url: 'https://other.example.com/',
            render: 'http',
            final_url: 'https://other.example.com/',
            status: 'same',
            http_status: 304,
            title: 'Other',
            error: null,
            added: [],
            removed: [],
            new_items: null,
            values: null,
            value_errors: null,
            fetched_at: fetchedAt,
          },
        ],
      },
    };
  }

  it('should name each changed page with its counts and first added and removed lines', () => {
    const parts = messageParts(pageTask());
    expect(parts.sections).toContainEqual({
      label: 'Changed pages',
      text: [
        'Shop <x> (https://shop.example.com/x?a=1&b=2)',
        '4 lines added, 1 removed',
        '+ Price: 9',
        '+ In <stock>',
        '+ Ships today',
        '- Price: 12',
      ].join('\n'),
    });
    expect(parts.sources[0]).toEqual({
      uri: 'https://shop.example.com/x?a=1&b=2',
      title: 'Shop <x>',
    });
  });

  it('should link the changed page and quote its lines escaped in the condition-met email', () => {
    const { text, html } = renderEmail(pageTask());
    expect(text).toContain('Changed pages:\nShop <x> (https://shop.example.com/x?a=1&b=2)');
    expect(html).toContain(
      '<p><a href="https://shop.example.com/x?a=1&amp;b=2">Shop &lt;x&gt;</a><br>4 lines added, 1 removed</p>',
    );
    expect(html).toContain('<pre>+ Price: 9\n+ In &lt;stock&gt;\n+ Ships today\n- Price: 12</pre>');
  });

  it('should show the values the pages read in messages and in the condition-met email', () => {
    const priced = pageTask();
    priced.execution!.pageResults![0] = {
      ...priced.execution!.pageResults![0],
      values: { price: 89.99, stock: null },
      value_errors: { stock: 'not found' },
    };
    const values = 'price: 89.99\nstock: not read (not found)';
    expect(messageParts(priced).sections).toContainEqual({ label: 'Values', text: values });
    expect(messageParts({ ...priced, event: 'values_changed' }).sections).toContainEqual({
      label: 'Values',
      text: values,
    });
    expect(renderEmail(priced).text).toContain(`Values:\n${values}`);
  });

  it('should list changed pages in the email of a withdrawn alert', () => {
    const email = renderEmail({ ...pageTask(), event: 'condition_retracted' });
    expect(email.text).toContain('Changed pages:\nShop <x>');
  });

  it('should say nothing of pages when no page changed', () => {
    const same = pageTask();
    same.execution!.pageResults = same.execution!.pageResults!.slice(1);
    expect(messageParts(same).sections.map((section) => section.label)).toEqual([
      'Answer',
      'Reasoning',
    ]);
  });

  it('should carry page_results and verdict_execution_id in the webhook execution', () => {
    const body = JSON.parse(webhookBody({ ...pageTask(), event: 'values_changed' }));
    expect(body.data.execution.verdict_execution_id).toBe('execution-1');
    expect(body.data.execution.page_results).toEqual(pageTask().execution!.pageResults);
  });
});
