import { CodedError } from '../common/errors/coded-error';
import { TaskErrorCode } from './task-error-code';

/**
 * `evidence`: how much the sources must back a verdict before it counts as met, and how many
 * met checks in a row confirm it (docs/api.md, "Values, evidence, confirmation and retraction").
 */
export interface EvidenceRule {
  min_domains: number;
  trusted_domains: string[];
  confirmations: number;
}

/** The rule a task without `evidence` is measured by (its verdict is not gated by it). */
export const DEFAULT_EVIDENCE_RULE: EvidenceRule = {
  min_domains: 1,
  trusted_domains: [],
  confirmations: 1,
};

export const MIN_DOMAINS_RANGE = { min: 1, max: 5 };
export const CONFIRMATIONS_RANGE = { min: 1, max: 3 };
export const MAX_TRUSTED_DOMAINS = 20;
const RULE_KEYS = new Set(['min_domains', 'trusted_domains', 'confirmations']);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A DNS host name of at least two labels, lower case (what a domain of a source looks like). */
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`);

/**
 * A host as evidence counts it: lower-cased, without a trailing dot or a leading `www.`; null
 * when `text` is not a host name.
 */
export function domainOf(text: string): string | null {
  let host = text.trim().toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  return HOST_NAME.test(host) ? host : null;
}

/** A request's `evidence` that breaks one of those rules; `message` is the reason alone. */
export class EvidenceRuleError extends CodedError<TaskErrorCode.INVALID_EVIDENCE_RULE> {
  constructor(reason: string) {
    super(reason, TaskErrorCode.INVALID_EVIDENCE_RULE);
  }
}

function integerIn(
  value: unknown,
  name: string,
  range: { min: number; max: number },
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < range.min ||
    value > range.max
  ) {
    throw new EvidenceRuleError(`${name} must be an integer from ${range.min} to ${range.max}`);
  }
  return value;
}

/**
 * Checks a request's `evidence` and returns it as stored: every field present (defaults filled
 * in), trusted domains read as `domainOf` reads them, without repeats.
 */
export function validateEvidenceRule(input: unknown): EvidenceRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new EvidenceRuleError('must be a JSON object');
  }
  const rule = input as Record<string, unknown>;
  for (const key of Object.keys(rule)) {
    if (!RULE_KEYS.has(key)) {
      const shown = key.length > 50 ? `${key.slice(0, 50)}…` : key;
      throw new EvidenceRuleError(
        `only min_domains, trusted_domains and confirmations are allowed, not ${JSON.stringify(shown)}`,
      );
    }
  }
  const trusted = rule.trusted_domains ?? [];
  if (!Array.isArray(trusted) || trusted.length > MAX_TRUSTED_DOMAINS) {
    throw new EvidenceRuleError(
      `trusted_domains must be a list of at most ${MAX_TRUSTED_DOMAINS} host names`,
    );
  }
  const domains = trusted.map((entry) => {
    const domain = typeof entry === 'string' && entry.length <= 253 ? domainOf(entry) : null;
    if (domain === null) {
      const shown = typeof entry === 'string' ? JSON.stringify(entry.slice(0, 60)) : 'a non-string';
      throw new EvidenceRuleError(
        `trusted_domains must hold host names such as "example.com", not ${shown}`,
      );
    }
    return domain;
  });
  return {
    min_domains: integerIn(rule.min_domains, 'min_domains', MIN_DOMAINS_RANGE, 1),
    trusted_domains: [...new Set(domains)],
    confirmations: integerIn(rule.confirmations, 'confirmations', CONFIRMATIONS_RANGE, 1),
  };
}
