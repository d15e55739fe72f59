import { Resolver } from 'node:dns';
import type { Prices } from '../search/provider-usage';
import { DEFAULT_GEMINI_MODEL } from '../search/providers/gemini-search.provider';
import { DEFAULT_OPENAI_MODEL } from '../search/providers/openai-search.provider';
import { DEFAULT_PERPLEXITY_MODEL } from '../search/providers/perplexity-search.provider';
import { SEARCH_PROVIDERS } from '../search/search-provider.registry';
import { parseDuration, parseDurationList } from './duration';

/** The validated configuration of one service instance (README, "Configuration"). */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | null;
  databasePoolSize: number;
  dataDir: string;
  nodeEnv: string;
  isProduction: boolean;
  authDisabled: boolean;
  jwt: {
    jwksUrl: string | null;
    publicKey: string | null;
    issuer: string | null;
    audience: string | null;
    emailClaim: string;
    /** `azp` values accepted; empty: not checked. */
    authorizedParties: string[];
    /** Trust the email claim as verified even without `email_verified: true`. */
    trustEmail: boolean;
  };
  adminEmails: string[];
  /** The provider that runs checks (README, "Search providers"); null: none is configured. */
  searchProvider: string | null;
  gemini: { apiKey: string | null; baseUrl: string; model: string };
  openai: { apiKey: string | null; baseUrl: string; model: string };
  perplexity: { apiKey: string | null; baseUrl: string; model: string };
  searxng: { url: string | null };
  llm: { baseUrl: string | null; apiKey: string | null; model: string | null };
  /** `PRICE_*` overrides of the built-in list prices (USD). */
  prices: Prices;
  /** `USER_MONTHLY_BUDGET_USD`; null: no budget. */
  userMonthlyBudgetUsd: number | null;
  smtpUrl: string | null;
  mailFrom: string;
  webhookAllowPrivateNetworks: boolean;
  webhookRetryScheduleMs: number[];
  /** Name servers for notification hosts (`ip[:port]`); empty: the system's. */
  dnsServers: string[];
  /** Base URL of the Telegram Bot API, without a trailing slash. */
  telegramApiBaseUrl: string;
  /** Consecutive failed executions that raise `task.check_failing`. */
  alertAfterFailures: number;
  /** `verified`: email configs may only use the owner's own or verified addresses. */
  emailRecipientPolicy: 'verified' | 'any';
  rateLimit: { perMinute: number; perHour: number; perDay: number; llmPerHour: number };
  /** Active tasks one user may have; 0: no cap. */
  maxActiveTasksPerUser: number;
  scheduler: { minIntervalMs: number; maxIntervalMs: number };
  workerEnabled: boolean;
  workerConcurrency: number;
  trustProxy: string | boolean | number;
  logLevel: string;
  /** Bearer token of `GET /metrics`; null: metrics answer only with `AUTH_DISABLED`. */
  metricsToken: string | null;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

type Env = Record<string, string | undefined>;

class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

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
    this.problems.push(`${name}: expected true or false, got "${value}"`);
    return fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name}: expected an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return parsed;
  }

  duration(name: string, fallback: string): number {
    const value = this.raw(name) ?? fallback;
    const parsed = parseDuration(value);
    if (parsed === null || parsed <= 0) {
      this.problems.push(`${name}: expected a duration such as 30s, 15m, 2h or 7d, got "${value}"`);
      return parseDuration(fallback) ?? 0;
    }
    return parsed;
  }

  durationList(name: string, fallback: string): number[] {
    const value = this.raw(name) ?? fallback;
    const parsed = parseDurationList(value);
    if (parsed === null) {
      this.problems.push(`${name}: expected a comma-separated list of durations, got "${value}"`);
      return parseDurationList(fallback) ?? [];
    }
    return parsed;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name}: expected ${allowed.join(' or ')}, got "${value}"`);
    return fallback;
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
      this.problems.push(
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
      this.problems.push(`${name}: expected a number of at least ${min}, got "${value}"`);
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
      this.problems.push(
        `${name}: expected a ${protocols.join(' or ')} URL, got "${redactUrl(value)}"`,
      );
      return null;
    }
  }
}

/** Hides credentials of a URL so a configuration error never prints a password. */
function redactUrl(value: string): string {
  return value.replace(/\/\/([^@/]*)@/, '//***@');
}

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function parseTrustProxy(value: string | undefined): string | boolean | number {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * `SEARCH_PROVIDER`: the named provider, whose variables must all be set;
 * unset, the first registered provider whose variables are set; none: null.
 */
function selectSearchProvider(read: EnvReader): string | null {
  const isSet = (variable: string) => read.raw(variable) !== undefined;
  const requested = read.raw('SEARCH_PROVIDER')?.toLowerCase();
  if (requested === undefined) {
    return SEARCH_PROVIDERS.find((provider) => provider.variables.every(isSet))?.name ?? null;
  }
  const registration = SEARCH_PROVIDERS.find((provider) => provider.name === requested);
  if (registration === undefined) {
    const names = SEARCH_PROVIDERS.map((provider) => provider.name);
    read.problems.push(
      `SEARCH_PROVIDER: expected ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}, got "${requested}"`,
    );
    return null;
  }
  const missing = registration.variables.filter((variable) => !isSet(variable));
  if (missing.length > 0) {
    read.problems.push(`SEARCH_PROVIDER=${requested}: set ${missing.join(', ')}`);
  }
  return requested;
}

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

/**
 * Reads and validates every variable at once so start-up fails with one message that lists
 * every bad variable instead of stopping at the first.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const read = new EnvReader(env);
  const nodeEnv = read.string('NODE_ENV', 'development');
  const isProduction = nodeEnv === 'production';
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const authDisabled = read.boolean('AUTH_DISABLED', false);

  const config: AppConfig = {
    port: read.integer('PORT', 3000, 0, 65535),
    // Without authentication anyone who can connect is an administrator: stay on this machine.
    host: read.string('HOST', authDisabled ? '127.0.0.1' : '0.0.0.0'),
    databaseUrl,
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 20, 2, 500),
    dataDir: read.string('DATA_DIR', './data'),
    nodeEnv,
    isProduction,
    authDisabled,
    jwt: {
      jwksUrl: read.url('JWT_JWKS_URL', ['http:', 'https:']),
      publicKey: read.optional('JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n') ?? null,
      issuer: read.optional('JWT_ISSUER'),
      audience: read.optional('JWT_AUDIENCE'),
      emailClaim: read.string('JWT_EMAIL_CLAIM', 'email'),
      authorizedParties: commaList(read.raw('JWT_AUTHORIZED_PARTIES')),
      trustEmail: read.boolean('JWT_TRUST_EMAIL', false),
    },
    adminEmails: commaList(read.raw('ADMIN_EMAILS')).map((email) => email.toLowerCase()),
    searchProvider: selectSearchProvider(read),
    gemini: {
      apiKey: read.optional('GEMINI_API_KEY'),
      baseUrl: read.baseUrl('GEMINI_BASE_URL') ?? 'https://generativelanguage.googleapis.com',
      model: read.string('GEMINI_MODEL', DEFAULT_GEMINI_MODEL),
    },
    openai: {
      apiKey: read.optional('OPENAI_API_KEY'),
      baseUrl: read.baseUrl('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
      model: read.string('OPENAI_MODEL', DEFAULT_OPENAI_MODEL),
    },
    perplexity: {
      apiKey: read.optional('PERPLEXITY_API_KEY'),
      baseUrl: read.baseUrl('PERPLEXITY_BASE_URL') ?? 'https://api.perplexity.ai',
      model: read.string('PERPLEXITY_MODEL', DEFAULT_PERPLEXITY_MODEL),
    },
    searxng: { url: read.baseUrl('SEARXNG_URL') },
    llm: {
      baseUrl: read.baseUrl('LLM_BASE_URL'),
      apiKey: read.optional('LLM_API_KEY'),
      model: read.optional('LLM_MODEL'),
    },
    prices: {
      inputPerMTok: read.decimal('PRICE_INPUT_PER_MTOK', 0),
      outputPerMTok: read.decimal('PRICE_OUTPUT_PER_MTOK', 0),
      perSearch: read.decimal('PRICE_PER_SEARCH', 0),
    },
    userMonthlyBudgetUsd: read.decimal('USER_MONTHLY_BUDGET_USD', 0),
    smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: read.string('MAIL_FROM', 'Monitor <monitor@localhost>'),
    webhookAllowPrivateNetworks: read.boolean('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookRetryScheduleMs: read.durationList(
      'WEBHOOK_RETRY_SCHEDULE',
      DEFAULT_WEBHOOK_RETRY_SCHEDULE,
    ),
    dnsServers: read.dnsServers('DNS_SERVERS'),
    telegramApiBaseUrl: (
      read.url('TELEGRAM_API_BASE_URL', ['http:', 'https:']) ?? 'https://api.telegram.org'
    ).replace(/\/+$/, ''),
    alertAfterFailures: read.integer('ALERT_AFTER_FAILURES', 3, 1, 1000),
    emailRecipientPolicy: read.oneOf(
      'EMAIL_RECIPIENT_POLICY',
      ['verified', 'any'] as const,
      'verified',
    ),
    rateLimit: {
      perMinute: read.integer('RATE_LIMIT_PER_MINUTE', 100, 1, 10_000_000),
      perHour: read.integer('RATE_LIMIT_PER_HOUR', 1000, 1, 10_000_000),
      perDay: read.integer('RATE_LIMIT_PER_DAY', 10000, 1, 10_000_000),
      llmPerHour: read.integer('RATE_LIMIT_LLM_PER_HOUR', 60, 1, 10_000_000),
    },
    maxActiveTasksPerUser: read.integer('MAX_ACTIVE_TASKS_PER_USER', 100, 0, 10_000_000),
    scheduler: {
      minIntervalMs: read.duration('SCHEDULER_MIN_INTERVAL', '15m'),
      maxIntervalMs: read.duration('SCHEDULER_MAX_INTERVAL', '7d'),
    },
    workerEnabled: read.boolean('WORKER_ENABLED', true),
    workerConcurrency: read.integer('WORKER_CONCURRENCY', 200, 1, 1000),
    trustProxy: parseTrustProxy(read.raw('TRUST_PROXY')),
    logLevel: read.string('LOG_LEVEL', 'info'),
    metricsToken: read.optional('METRICS_TOKEN'),
  };

  if (!['debug', 'info', 'warn', 'error'].includes(config.logLevel)) {
    read.problems.push(`LOG_LEVEL: expected debug, info, warn or error, got "${config.logLevel}"`);
  }
  if (config.scheduler.minIntervalMs > config.scheduler.maxIntervalMs) {
    read.problems.push('SCHEDULER_MIN_INTERVAL: must not be longer than SCHEDULER_MAX_INTERVAL');
  }
  if (isProduction && authDisabled) {
    read.problems.push('AUTH_DISABLED: not allowed when NODE_ENV=production');
  }
  if (
    isProduction &&
    (config.jwt.jwksUrl !== null || config.jwt.publicKey !== null) &&
    config.jwt.issuer === null
  ) {
    read.problems.push(
      'JWT_ISSUER: required when NODE_ENV=production and JWT verification is configured',
    );
  }
  if (isProduction && read.raw('DATABASE_URL') === undefined) {
    read.problems.push(
      'DATABASE_URL: required when NODE_ENV=production (the embedded database is for development only)',
    );
  }
  if (read.problems.length > 0) throw new ConfigValidationError(read.problems);
  return config;
}
