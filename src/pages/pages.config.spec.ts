import { readConfig } from '../config/config-slice';
import { pagesConfig } from './pages.config';

describe('pagesConfig', () => {
  it('should read PAGE_PROMPT_MAX_CHARS with 20,000 by default and refuse a value out of range', () => {
    expect(readConfig({}, { pages: pagesConfig }).pages.promptMaxChars).toBe(20_000);
    expect(readConfig({ PAGE_PROMPT_MAX_CHARS: '5000' }, { pages: pagesConfig }).pages).toEqual({
      promptMaxChars: 5_000,
    });
    expect(() => readConfig({ PAGE_PROMPT_MAX_CHARS: '10' }, { pages: pagesConfig })).toThrow(
      'PAGE_PROMPT_MAX_CHARS: expected an integer from 1000 to 100000, got "10"',
    );
  });
});
