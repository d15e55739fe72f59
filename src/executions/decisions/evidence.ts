import { getDomain } from 'tldts';
import type { GroundingSource } from '../../search/search.types';
import { DEFAULT_EVIDENCE_RULE, domainOf, type EvidenceRule } from '../../tasks/evidence-rule';

/** What an execution's sources amount to (docs/api.md, "Values, evidence, confirmation and retraction"). */
export interface EvidenceReport {
  distinct_domains: number;
  trusted_matches: number;
  satisfied: boolean;
}

/**
 * Gemini's grounding sources are redirect links on this host; their `title` is the site's
 * domain, so the title stands for the host.
 */
const REDIRECT_HOSTS = new Set(['vertexaisearch.cloud.google.com']);

/**
 * A source's host: its URL's host, lower-cased, a leading `www.` removed; for a redirect link,
 * its title read the same way. Null when there is none (a title that is not a host name).
 */
export function sourceHost(source: GroundingSource): string | null {
  let host: string;
  try {
    host = new URL(source.uri).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (REDIRECT_HOSTS.has(host)) return domainOf(source.title);
  if (host === '') return null;
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * The site a host belongs to: its registrable domain by the public-suffix list, private section
 * included (`news.bbc.co.uk` is `bbc.co.uk`; `a.github.io` and `b.github.io` are two sites). An
 * IP address, or a host without a registrable domain (`localhost`, a public suffix), is its own.
 */
export function siteOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** Whether `host` is `trusted` or one of its subdomains. */
export function matchesTrusted(host: string, trusted: string): boolean {
  return host === trusted || host.endsWith(`.${trusted}`);
}

/**
 * Counts the distinct sites of the sources, and those of the sources whose host is trusted, and
 * whether the rule holds.
 */
export function assessEvidence(
  sources: GroundingSource[],
  rule: EvidenceRule = DEFAULT_EVIDENCE_RULE,
): EvidenceReport {
  const hosts = sources.map(sourceHost).filter((host): host is string => host !== null);
  const sites = new Set(hosts.map(siteOf));
  const trustedSites = new Set(
    hosts
      .filter((host) => rule.trusted_domains.some((trusted) => matchesTrusted(host, trusted)))
      .map(siteOf),
  );
  return {
    distinct_domains: sites.size,
    trusted_matches: trustedSites.size,
    satisfied:
      sites.size >= rule.min_domains &&
      (rule.trusted_domains.length === 0 || trustedSites.size >= 1),
  };
}
