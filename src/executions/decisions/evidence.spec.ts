import { assessEvidence, siteOf, sourceHost } from './evidence';

const rule = (overrides = {}) => ({
  min_domains: 1,
  trusted_domains: [] as string[],
  confirmations: 1,
  ...overrides,
});

describe('sourceHost', () => {
  it('should use the host without www when the source is a plain link', () => {
    expect(sourceHost({ uri: 'https://WWW.Example.com/a', title: 'x' })).toBe('example.com');
  });

  it('should use the title as the host when the source is a Gemini redirect link', () => {
    const uri = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc';
    expect(sourceHost({ uri, title: 'www.reuters.com' })).toBe('reuters.com');
    expect(sourceHost({ uri, title: 'Reuters' })).toBeNull();
  });
});

describe('siteOf', () => {
  it('should give the registrable domain when the host is a subdomain', () => {
    expect(siteOf('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(siteOf('a.b.example.com')).toBe('example.com');
  });

  it('should keep a host of the private suffix section as a site of its own', () => {
    expect(siteOf('a.github.io')).toBe('a.github.io');
    expect(siteOf('x.a.github.io')).toBe('a.github.io');
  });

  it('should be the host itself when the host has no registrable domain', () => {
    expect(siteOf('192.0.2.7')).toBe('192.0.2.7');
    expect(siteOf('[2001:db8::1]')).toBe('[2001:db8::1]');
    expect(siteOf('localhost')).toBe('localhost');
    expect(siteOf('github.io')).toBe('github.io');
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

  it('should count hosts of one site once when sources come from its subdomains', () => {
    const bbc = [
      { uri: 'https://news.bbc.co.uk/a', title: 'a' },
      { uri: 'https://www.bbc.co.uk/b', title: 'b' },
      {
        uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/c',
        title: 'sport.bbc.co.uk',
      },
    ];
    expect(assessEvidence(bbc, rule({ min_domains: 2 }))).toEqual({
      distinct_domains: 1,
      trusted_matches: 0,
      satisfied: false,
    });
  });

  it('should count two sites when sources are on two hosts of a private suffix', () => {
    const pages = [
      { uri: 'https://alice.github.io/post', title: 'a' },
      { uri: 'https://bob.github.io/post', title: 'b' },
    ];
    expect(assessEvidence(pages, rule({ min_domains: 2 })).distinct_domains).toBe(2);
  });

  it('should count each IP address as a site of its own when sources are addresses', () => {
    const addresses = [
      { uri: 'http://192.0.2.1/a', title: 'a' },
      { uri: 'http://192.0.2.2/b', title: 'b' },
      { uri: 'http://192.0.2.2/c', title: 'c' },
    ];
    expect(assessEvidence(addresses).distinct_domains).toBe(2);
  });

  it('should match trusted domains by host and count the matching sites when a subdomain is trusted', () => {
    const mixed = [
      { uri: 'https://a.news.bbc.co.uk/1', title: '1' },
      { uri: 'https://b.news.bbc.co.uk/2', title: '2' },
      { uri: 'https://sport.bbc.co.uk/3', title: '3' },
      { uri: 'https://apnews.com/4', title: '4' },
    ];
    expect(assessEvidence(mixed, rule({ trusted_domains: ['news.bbc.co.uk'] }))).toEqual({
      distinct_domains: 2,
      trusted_matches: 1,
      satisfied: true,
    });
    expect(
      assessEvidence(mixed.slice(2), rule({ trusted_domains: ['news.bbc.co.uk'] })).satisfied,
    ).toBe(false);
  });
});
