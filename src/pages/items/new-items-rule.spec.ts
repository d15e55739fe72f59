import type { PageResult } from '../page.types';
import { evaluatePageRule, validatePageRule } from '../rules/page-rule';

function page(url: string, overrides: Partial<PageResult> = {}): PageResult {
  return {
    url,
    render: 'http',
    finalUrl: url,
    status: 'same',
    httpStatus: 200,
    title: 'Jobs',
    error: null,
    added: [],
    removed: [],
    fetchedAt: new Date(0),
    text: 'Old job',
    contentHash: 'hash',
    etag: null,
    lastModified: null,
    bodyHash: null,
    newItems: [],
    newItemKeys: [],
    keysToRemember: [],
    ...overrides,
  };
}

describe('the new_items page rule', () => {
  it('should be saved without text', () => {
    expect(validatePageRule({ type: 'new_items' })).toEqual({ type: 'new_items' });
    expect(() => validatePageRule({ type: 'new_items', text: 'a' })).toThrow(
      'Invalid page_rule: text is not allowed with type new_items',
    );
  });

  it('should be met by new items, naming them and keeping their keys', () => {
    const verdict = evaluatePageRule({ type: 'new_items' }, [
      page('https://e.example/a'),
      page('https://e.example/jobs', {
        status: 'changed',
        newItems: [
          { title: 'Rust engineer', url: 'https://e.example/1' },
          { title: 'Go engineer', url: 'https://e.example/2' },
          { title: '', url: 'https://e.example/3' },
        ],
        newItemKeys: ['k1', 'k2', 'k3'],
      }),
    ]);
    expect(verdict).toEqual({
      claimedMet: true,
      answer: '3 new items on https://e.example/jobs',
      reasoning: 'https://e.example/jobs: "Rust engineer", "Go engineer", "https://e.example/3".',
      currentState: { rule: 'new_items', met: true, keys: ['k1', 'k2', 'k3'] },
    });
  });

  it('should not be met on the baseline or without new items', () => {
    const baseline = evaluatePageRule({ type: 'new_items' }, [
      page('https://e.example/', { status: 'new' }),
    ]);
    expect(baseline).toMatchObject({
      claimedMet: false,
      answer: 'No new items',
      reasoning: 'First fetch: the items listed now are the baseline; later ones are new.',
      currentState: { rule: 'new_items', met: false, keys: [] },
    });
    expect(evaluatePageRule({ type: 'new_items' }, [page('https://e.example/')]).claimedMet).toBe(
      false,
    );
  });
});
