import { EvidenceRuleError, domainOf, validateEvidenceRule } from './evidence-rule';

describe('validateEvidenceRule', () => {
  it('should fill in the defaults when only some fields are sent', () => {
    expect(validateEvidenceRule({ confirmations: 2 })).toEqual({
      min_domains: 1,
      trusted_domains: [],
      confirmations: 2,
    });
  });

  it('should read trusted domains as sources are read when they carry www or capitals', () => {
    expect(validateEvidenceRule({ trusted_domains: ['WWW.Reuters.com', 'reuters.com.'] })).toEqual({
      min_domains: 1,
      trusted_domains: ['reuters.com'],
      confirmations: 1,
    });
  });

  it.each([
    [{ min_domains: 0 }, 'min_domains must be an integer from 1 to 5'],
    [{ min_domains: 2.5 }, 'min_domains must be an integer from 1 to 5'],
    [{ confirmations: 4 }, 'confirmations must be an integer from 1 to 3'],
    [{ trusted_domains: 'reuters.com' }, 'trusted_domains must be a list of at most 20 host names'],
    [
      { trusted_domains: ['not a host'] },
      'trusted_domains must hold host names such as "example.com", not "not a host"',
    ],
    [
      { trusted_domains: [7] },
      'trusted_domains must hold host names such as "example.com", not a non-string',
    ],
    [
      { quorum: 2 },
      'only min_domains, trusted_domains and confirmations are allowed, not "quorum"',
    ],
    [[], 'must be a JSON object'],
  ])('should refuse %j with a clear reason', (input, reason) => {
    expect(() => validateEvidenceRule(input)).toThrow(new EvidenceRuleError(reason));
  });
});

describe('domainOf', () => {
  it('should return null when the text is not a host name', () => {
    expect(domainOf('Reuters')).toBeNull();
    expect(domainOf('www.bbc.co.uk')).toBe('bbc.co.uk');
  });
});
