import type { ExecutionEntity } from './execution.entity';
import { toExecutionResponse } from './execution.mapper';

const MEMBERS = 'https://shop.example/members';
const NEWS = 'https://news.example/';

/** A model's verdict on two pages, the first fetched with the owner's headers. */
function pageExecution(): ExecutionEntity {
  const at = new Date('2026-11-26T10:00:00Z');
  return {
    id: 'e1',
    taskId: 't1',
    status: 'success',
    trigger: 'manual',
    jobId: null,
    attempts: 1,
    workerId: null,
    startedAt: at,
    completedAt: at,
    result: {
      condition_met: true,
      answer: 'Back in stock',
      reasoning: 'The members page says: 3 left',
      error: 'kept from others',
    },
    errorMessage: null,
    notification: { notify: true },
    groundingSources: [
      { uri: 'https://shop.example/members/home', title: 'Members of Ada' },
      { uri: NEWS, title: 'News' },
    ],
    conditionMet: true,
    claimedMet: true,
    evidence: null,
    outputValues: null,
    valueChanges: null,
    valuesSchemaKey: null,
    answer: 'Back in stock',
    reasoning: 'The members page says: 3 left',
    usage: null,
    pageResults: [
      {
        url: MEMBERS,
        render: 'http',
        final_url: 'https://shop.example/members/home',
        status: 'changed',
        http_status: 200,
        title: 'Members of Ada',
        error: null,
        added: ['3 left'],
        removed: ['none left'],
        new_items: null,
        values: null,
        value_errors: null,
        fetched_at: at.toISOString(),
      },
      {
        url: NEWS,
        render: 'http',
        final_url: NEWS,
        status: 'same',
        http_status: 200,
        title: 'News',
        error: null,
        added: [],
        removed: [],
        new_items: null,
        values: null,
        value_errors: null,
        fetched_at: at.toISOString(),
      },
    ],
    verdictExecutionId: 'e1',
    createdAt: at,
  };
}

describe('toExecutionResponse', () => {
  it('should show the owner every page as it was read', () => {
    const shown = toExecutionResponse(pageExecution(), 'owner');
    expect(shown.page_results?.[0]).toMatchObject({ title: 'Members of Ada', added: ['3 left'] });
    expect(shown.reasoning).toBe('The members page says: 3 left');
  });

  it('should show others a page fetched with headers by its url, status and http_status only', () => {
    const shown = toExecutionResponse(pageExecution(), { pagesWithHeaders: new Set([MEMBERS]) });
    expect(shown.page_results).toEqual([
      {
        url: MEMBERS,
        render: 'http',
        final_url: null,
        status: 'changed',
        http_status: 200,
        title: null,
        error: null,
        added: null,
        removed: null,
        new_items: null,
        values: null,
        value_errors: null,
        fetched_at: '2026-11-26T10:00:00.000Z',
      },
      expect.objectContaining({ url: NEWS, title: 'News', final_url: NEWS }),
    ]);
    expect(shown.grounding_sources).toEqual([
      { uri: MEMBERS, title: 'shop.example' },
      { uri: NEWS, title: 'News' },
    ]);
    expect(shown.reasoning).toBeNull();
    expect(shown.result).toEqual({
      condition_met: true,
      answer: 'Back in stock',
      reasoning: null,
    });
    expect(shown.answer).toBe('Back in stock');
    expect(shown.notification).toBeNull();
  });

  it('should show others every page and the reasoning when no page has headers', () => {
    const shown = toExecutionResponse(pageExecution(), { pagesWithHeaders: new Set() });
    expect(shown.page_results?.[0]).toMatchObject({ title: 'Members of Ada', added: ['3 left'] });
    expect(shown.grounding_sources?.[0].title).toBe('Members of Ada');
    expect(shown.reasoning).toBe('The members page says: 3 left');
    expect(shown.result).not.toHaveProperty('error');
  });

  it('should keep the new item keys of a page fetched with headers from others', () => {
    const execution = pageExecution();
    const state = { rule: 'new_items', met: true, keys: [`${MEMBERS}/offer-1`] };
    execution.result = { ...execution.result, current_state: state };
    const shown = toExecutionResponse(execution, { pagesWithHeaders: new Set([MEMBERS]) });
    expect(shown.result?.current_state).toEqual({ rule: 'new_items', met: true, keys: null });
    const owned = toExecutionResponse(execution, 'owner');
    expect(owned.result?.current_state).toEqual(state);
  });
});
