import { Resolver } from 'node:dns';
import { CodedError } from '../common/errors/coded-error';
import { ConfigErrorCode } from './config-error-code';
import { parseDuration, parseDurationList } from './duration';

export class ConfigValidationError extends CodedError<ConfigErrorCode.INVALID_CONFIGURATION> {
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      ConfigErrorCode.INVALID_CONFIGURATION,
    );
  }
}

/** The process environment, or what a test hands in instead. */
export type Env = Record<string, string | undefined>;

/**
 * Typed reads of environment variables for the `*.config.ts` of each feature. A bad value is
 * noted (and the fallback returned) instead of thrown, so start-up can report every bad variable
 * in one message (`readConfig`).
 */
export class EnvReader {
  private readonly noted = new Set<string>();

  constructor(private readonly env: Env) {}

  /** `NODE_ENV`, lower-cased: `Production` is production too. */
  get nodeEnv(): string {
    return this.string('NODE_ENV', 'development').toLowerCase();
  }

  /** `NODE_ENV=production` (any case): several features refuse development shortcuts then. */
  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  /** Every problem found so far, each once (two features may read one variable). */
  get problems(): string[] {
    return [...this.noted];
  }

  /** Records a problem that a feature's own rule found (`NAME: what is wrong`). */
  problem(message: string): void {
    this.noted.add(message);
  }

  /** Whether the variable is set to something other than blanks. */
  isSet(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | null {
    return this.raw(name) ?? null;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const normalized = value.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
    if (['false', '0', 'no', 'off'].includes(normalized)) return false;
    this.problem(`${name}: expected true or false, got "${value}"`);
    return fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      this.problem(`${name}: expected an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return parsed;
  }

  duration(name: string, fallback: string): number {
    const value = this.raw(name) ?? fallback;
    const parsed = parseDuration(value);
    if (parsed === null || parsed <= 0) {
      this.problem(`${name}: expected a duration such as 30s, 15m, 2h or 7d, got "${value}"`);
      return parseDuration(fallback) ?? 0;
    }
    return parsed;
  }

  durationList(name: string, fallback: string): number[] {
    const value = this.raw(name) ?? fallback;
    const parsed = parseDurationList(value);
    if (parsed === null) {
      this.problem(`${name}: expected a comma-separated list of durations, got "${value}"`);
      return parseDurationList(fallback) ?? [];
    }
    return parsed;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problem(`${name}: expected ${alternatives(allowed)}, got "${value}"`);
    return fallback;
  }

  /** A comma-separated list, blanks dropped; empty when unset. */
  list(name: string): string[] {
    return commaList(this.raw(name));
  }

  /** Comma-separated `ip[:port]` (an IPv6 address with a port in brackets), as c-ares takes them. */
  dnsServers(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    const servers = commaList(value);
    try {
      new Resolver().setServers(servers);
      return servers;
    } catch {
      this.problem(
        `${name}: expected comma-separated IP addresses with an optional port (10.0.0.2, 10.0.0.2:53, [2001:db8::53]:53), got "${value}"`,
      );
      return [];
    }
  }

  /** A decimal number of at least `min`, or null when unset. */
  decimal(name: string, min: number): number | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    const parsed = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(parsed) || parsed < min) {
      this.problem(`${name}: expected a number of at least ${min}, got "${value}"`);
      return null;
    }
    return parsed;
  }

  /** A base URL without its trailing slashes. */
  baseUrl(name: string): string | null {
    return this.url(name, ['http:', 'https:'])?.replace(/\/+$/, '') ?? null;
  }

  url(name: string, protocols: string[]): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return value;
    } catch {
      this.problem(`${name}: expected a ${protocols.join(' or ')} URL, got "${redactUrl(value)}"`);
      return null;
    }
  }
}

/** Hides credentials of a URL so a configuration error never prints a password. */
function redactUrl(value: string): string {
  return value.replace(/\/\/([^@/]*)@/, '//***@');
}

export function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** `a or b`, `a, b or c`: how a message names the values a variable takes. */
export function alternatives(values: readonly string[]): string {
  return values.length < 2
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
