import { pageResultLine, pageTextForPrompt } from './page-result-line';

describe('pageResultLine', () => {
  it('should write a page result in the shape of an execution’s page_results', () => {
    const line = pageResultLine({
      url: 'https://e.example/',
      render: 'http',
      finalUrl: 'https://e.example/home',
      status: 'changed',
      httpStatus: 200,
      title: 'Home',
      error: null,
      added: ['b'],
      removed: ['a'],
      fetchedAt: new Date('2026-11-26T10:00:00Z'),
      text: 'b',
      contentHash: 'hash',
      etag: '"1"',
      lastModified: null,
      bodyHash: null,
      newItems: null,
      newItemKeys: [],
      keysToRemember: [],
    });
    expect(line).toEqual({
      url: 'https://e.example/',
      render: 'http',
      final_url: 'https://e.example/home',
      status: 'changed',
      http_status: 200,
      title: 'Home',
      error: null,
      added: ['b'],
      removed: ['a'],
      new_items: null,
      values: null,
      value_errors: null,
      fetched_at: '2026-11-26T10:00:00.000Z',
    });
  });
});

describe('pageTextForPrompt', () => {
  it('should keep a short text and cut a long one with a note', () => {
    expect(pageTextForPrompt('short', 10)).toBe('short');
    expect(pageTextForPrompt('0123456789abc', 10)).toBe('0123456789\n[… 3 more characters cut]');
  });
});
