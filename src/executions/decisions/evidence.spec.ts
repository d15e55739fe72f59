import { assessEvidence, sourceDomain } from './evidence';

const rule = (overrides = {}) => ({
  min_domains: 1,
  trusted_domains: [] as string[],
  confirmations: 1,
  ...overrides,
});

describe('sourceDomain', () => {
  it('should use the host without www when the source is a plain link', () => {
    expect(sourceDomain({ uri: 'https://WWW.Example.com/a', title: 'x' })).toBe('example.com');
  });

  it('should use the title as the host when the source is a Gemini redirect link', () => {
    const uri = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc';
    expect(sourceDomain({ uri, title: 'www.reuters.com' })).toBe('reuters.com');
    expect(sourceDomain({ uri, title: 'Reuters' })).toBeNull();
  });
});

describe('assessEvidence', () => {
  const sources = [
    { uri: 'https://www.reuters.com/a', title: 'a' },
    { uri: 'https://reuters.com/b', title: 'b' },
    { uri: 'https://news.bbc.co.uk/c', title: 'c' },
  ];

  it('should count distinct domains and trusted subdomains when sources repeat a site', () => {
    expect(assessEvidence(sources, rule({ trusted_domains: ['bbc.co.uk'] }))).toEqual({
      distinct_domains: 2,
      trusted_matches: 1,
      satisfied: true,
    });
  });

  it('should not be satisfied when fewer domains than min_domains back the verdict', () => {
    expect(assessEvidence(sources, rule({ min_domains: 3 })).satisfied).toBe(false);
  });

  it('should not be satisfied when no source is trusted', () => {
    expect(assessEvidence(sources, rule({ trusted_domains: ['apnews.com'] })).satisfied).toBe(
      false,
    );
  });

  it('should use the defaults when the task has no rule', () => {
    expect(assessEvidence([])).toEqual({
      distinct_domains: 0,
      trusted_matches: 0,
      satisfied: false,
    });
  });
});
