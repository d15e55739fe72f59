import { watchName, watchQuery } from './page-task-wording';

describe('watchQuery', () => {
  it('should watch the first page by its URL', () => {
    const pages = [{ url: 'https://example.com/changelog?tab=all' }, { url: 'https://b.test/' }];
    expect(watchQuery(pages)).toBe('Watch https://example.com/changelog?tab=all');
  });

  it('should cut a long URL to 500 characters', () => {
    const url = `https://example.com/${'a'.repeat(600)}`;
    expect(watchQuery([{ url }])).toBe(`Watch ${url}`.slice(0, 500));
  });
});

describe('watchName', () => {
  it("should name the task by the first page's host and path, without its query", () => {
    expect(watchName([{ url: 'https://example.com/changelog?tab=all#top' }])).toBe(
      'example.com/changelog',
    );
  });

  it('should keep the port, which names a local page', () => {
    expect(watchName([{ url: 'http://127.0.0.1:8080/status' }])).toBe('127.0.0.1:8080/status');
  });

  it('should cut a long path to 100 characters', () => {
    const name = watchName([{ url: `https://example.com/${'b'.repeat(200)}` }]);
    expect(name).toBe(`example.com/${'b'.repeat(88)}`);
  });
});
