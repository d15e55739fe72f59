import type { GroundingSource } from '../../search/search.types';
import { DEFAULT_EVIDENCE_RULE, domainOf, type EvidenceRule } from '../../tasks/evidence-rule';

/** What an execution's sources amount to (contract §7, `evidence`). */
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
 * A source's domain: its URL's host, lower-cased, a leading `www.` removed; for a redirect link,
 * its title read the same way. Null when there is none (a title that is not a host name).
 */
export function sourceDomain(source: GroundingSource): string | null {
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

/** Whether `domain` is `trusted` or one of its subdomains. */
export function matchesTrusted(domain: string, trusted: string): boolean {
  return domain === trusted || domain.endsWith(`.${trusted}`);
}

/** Counts the distinct domains of the sources and those trusted, and whether the rule holds. */
export function assessEvidence(
  sources: GroundingSource[],
  rule: EvidenceRule = DEFAULT_EVIDENCE_RULE,
): EvidenceReport {
  const domains = new Set(
    sources.map(sourceDomain).filter((domain): domain is string => domain !== null),
  );
  const trustedMatches = [...domains].filter((domain) =>
    rule.trusted_domains.some((trusted) => matchesTrusted(domain, trusted)),
  ).length;
  return {
    distinct_domains: domains.size,
    trusted_matches: trustedMatches,
    satisfied:
      domains.size >= rule.min_domains &&
      (rule.trusted_domains.length === 0 || trustedMatches >= 1),
  };
}
