import { promptUrls } from './prompt-urls';

describe('promptUrls', () => {
  it('should take each URL as the prompt writes it, without trailing punctuation', () => {
    expect(promptUrls('Watch https://example.com/a, and (http://example.org/b).')).toEqual([
      'https://example.com/a',
      'http://example.org/b',
    ]);
  });

  it('should keep the first of two URLs that parse to the same URL', () => {
    expect(
      promptUrls('See https://Example.com/a then https://example.com/a and https://example.com'),
    ).toEqual(['https://Example.com/a', 'https://example.com']);
  });

  it('should stop at 10 distinct URLs', () => {
    const prompt = Array.from({ length: 12 }, (_, n) => `https://example.com/${n % 11}`).join(' ');
    expect(promptUrls(prompt)).toEqual(
      Array.from({ length: 10 }, (_, n) => `https://example.com/${n}`),
    );
  });
});
