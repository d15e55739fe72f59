import { nulCharacterIssues } from './nul-characters';

describe('nulCharacterIssues', () => {
  it('should name each string that holds U+0000, at any depth, in document order', () => {
    const body = {
      name: 'a\u0000b',
      search_query: 'fine',
      notifications: [{ type: 'webhook', url: 'https://x/\u0000' }],
      pages: [{ url: 'https://a/', headers: { Cookie: 'id=\u0000' } }],
      tags: ['ok', '\u0000'],
      output_schema: { properties: { price: { description: 'x\u0000' } } },
    };
    expect(nulCharacterIssues(body, ['body'])).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'name'],
        msg: 'name must not contain NUL characters',
        input: 'a\u0000b',
      },
      {
        type: 'value_error',
        loc: ['body', 'notifications', 0, 'url'],
        msg: 'url must not contain NUL characters',
        input: 'https://x/\u0000',
      },
      {
        type: 'value_error',
        loc: ['body', 'pages', 0, 'headers', 'Cookie'],
        msg: 'Cookie must not contain NUL characters',
        input: 'id=\u0000',
      },
      {
        type: 'value_error',
        loc: ['body', 'tags', 1],
        msg: 'tags[1] must not contain NUL characters',
        input: '\u0000',
      },
      {
        type: 'value_error',
        loc: ['body', 'output_schema', 'properties', 'price', 'description'],
        msg: 'description must not contain NUL characters',
        input: 'x\u0000',
      },
    ]);
  });

  it('should name a field name that holds U+0000', () => {
    expect(nulCharacterIssues({ headers: { 'X-\u0000': 'v' } }, [])).toEqual([
      {
        type: 'value_error',
        loc: ['headers', 'X-\u0000'],
        msg: 'Field names must not contain NUL characters',
        input: 'X-\u0000',
      },
    ]);
  });

  it('should name a value that is itself a string after the last of its location', () => {
    expect(nulCharacterIssues('a\u0000', ['path', 'email'])).toEqual([
      expect.objectContaining({
        loc: ['path', 'email'],
        msg: 'email must not contain NUL characters',
      }),
    ]);
  });

  it('should find nothing in values without U+0000, and walk any depth without recursion', () => {
    expect(nulCharacterIssues({ a: [1, true, null, 'text', { b: 'ok' }] }, ['body'])).toEqual([]);
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 10_000; level++) deep = [deep];
    expect(nulCharacterIssues(deep, [])).toHaveLength(1);
  });
});
