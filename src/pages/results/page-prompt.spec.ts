import { allPagesFailed, pageSources, promptPages } from './page-prompt';
import type { PageResult } from '../page.types';

function result(overrides: Partial<PageResult>): PageResult {
  return {
    url: 'https://shop.example/item',
    render: 'http',
    finalUrl: null,
    status: 'new',
    httpStatus: 200,
    title: 'Item',
    error: null,
    added: [],
    removed: [],
    fetchedAt: new Date('2026-11-26T10:00:00Z'),
    text: 'Price: 90 EUR',
    contentHash: 'hash',
    etag: null,
    lastModified: null,
    bodyHash: null,
    newItems: null,
    newItemKeys: [],
    keysToRemember: [],
    ...overrides,
  };
}

const failed = result({
  url: 'https://down.example/',
  status: 'error',
  httpStatus: 503,
  title: null,
  error: 'HTTP 503',
  text: null,
  contentHash: null,
});
const moved = result({
  url: 'http://moved.example:8080/old',
  finalUrl: 'http://moved.example:8080/new',
  status: 'changed',
  title: null,
  text: 'a'.repeat(30),
  added: ['a'],
  removed: ['b'],
});

describe('promptPages', () => {
  it('should show the model every page read, at its final URL, its text cut', () => {
    expect(promptPages([result({}), failed, moved], 20)).toEqual([
      {
        url: 'https://shop.example/item',
        status: 'new',
        title: 'Item',
        text: 'Price: 90 EUR',
        added: [],
        removed: [],
      },
      {
        url: 'http://moved.example:8080/new',
        status: 'changed',
        title: null,
        text: `${'a'.repeat(20)}\n[… 10 more characters cut]`,
        added: ['a'],
        removed: ['b'],
      },
    ]);
  });
});

describe('pageSources', () => {
  it('should show a page with items by its new items, not its whole list', () => {
    const list = result({
      status: 'changed',
      text: 'Old post https://e.example/1\nNew post https://e.example/2',
      added: ['New post https://e.example/2'],
      newItems: [{ title: 'New post', url: 'https://e.example/2' }],
    });
    expect(promptPages([list], 1_000)).toEqual([
      {
        url: list.url,
        status: 'changed',
        title: list.title,
        text: '',
        added: [],
        removed: [],
        newItems: [{ title: 'New post', url: 'https://e.example/2' }],
      },
    ]);
  });

  it('should name each page read by its title, else by its host without port', () => {
    expect(pageSources([result({}), failed, moved])).toEqual([
      { uri: 'https://shop.example/item', title: 'Item' },
      { uri: 'http://moved.example:8080/new', title: 'moved.example' },
    ]);
  });
});

describe('allPagesFailed', () => {
  it('should name every page with its error', () => {
    expect(
      allPagesFailed([failed, { ...failed, url: 'https://b.example/', error: 'timed out' }]),
    ).toBe('All pages failed: https://down.example/: HTTP 503; https://b.example/: timed out');
  });
});
