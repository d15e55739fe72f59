import { readConfig } from '../config/config-slice';
import { pagesConfig } from './pages.config';

describe('pagesConfig', () => {
  it('should read PAGE_PROMPT_MAX_CHARS with 20,000 by default and refuse a value out of range', () => {
    expect(readConfig({}, { pages: pagesConfig }).pages.promptMaxChars).toBe(20_000);
    expect(
      readConfig({ PAGE_PROMPT_MAX_CHARS: '5000' }, { pages: pagesConfig }).pages.promptMaxChars,
    ).toBe(5_000);
    expect(() => readConfig({ PAGE_PROMPT_MAX_CHARS: '10' }, { pages: pagesConfig })).toThrow(
      'PAGE_PROMPT_MAX_CHARS: expected an integer from 1000 to 100000, got "10"',
    );
  });

  it('should read PAGE_READ_CPU_MS with 2,000 by default and refuse a value out of range', () => {
    expect(readConfig({}, { pages: pagesConfig }).pages.readCpuMs).toBe(2_000);
    expect(readConfig({ PAGE_READ_CPU_MS: '500' }, { pages: pagesConfig }).pages.readCpuMs).toBe(
      500,
    );
    expect(() => readConfig({ PAGE_READ_CPU_MS: '0' }, { pages: pagesConfig })).toThrow(
      'PAGE_READ_CPU_MS: expected an integer from 100 to 10000, got "0"',
    );
  });
});
