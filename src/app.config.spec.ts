import { ConfigValidationError, loadConfig } from './app.config';
import { alternatives } from './config/env-reader';
import { SEARCH_PROVIDERS } from './search/search-provider.registry';

describe('loadConfig', () => {
  it('should apply the documented defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      server: { port: 3000, host: '0.0.0.0', nodeEnv: 'development' },
      database: { url: null, dataDir: './data' },
      auth: { authDisabled: false },
      email: { mailFrom: 'Monitor <monitor@localhost>' },
      notifications: { webhookAllowPrivateNetworks: false, dnsServers: [] },
      rateLimit: {
        perMinute: 100,
        perHour: 1000,
        perDay: 10000,
        llmPerHour: 60,
        authFailuresPerMinute: 30,
        testSendsPerHour: 30,
      },
      tasks: { maxActiveTasksPerUser: 100, maxTasksPerUser: 1000 },
      scheduler: { minIntervalMs: 15 * 60_000, maxIntervalMs: 7 * 86_400_000, workerEnabled: true },
      console: { enabled: true },
      retention: { executionRetentionDays: 180 },
    });
    expect(config.notifications.webhookRetryScheduleMs).toEqual([
      5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5,
    ]);
    expect(config.search.gemini.baseUrl).toBe('https://generativelanguage.googleapis.com');
  });

  it('should list every bad variable in one error when several are invalid', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        AUTH_DISABLED: 'maybe',
        SCHEDULER_MIN_INTERVAL: 'soon',
        DATABASE_URL: 'mysql://x',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems.join('\n');
    for (const name of ['PORT', 'AUTH_DISABLED', 'SCHEDULER_MIN_INTERVAL', 'DATABASE_URL']) {
      expect(problems).toContain(name);
    }
  });

  it('should refuse AUTH_DISABLED and the embedded database when NODE_ENV=production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_DISABLED: 'true' })).toThrow(
      /AUTH_DISABLED[\s\S]*DATABASE_URL/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/monitor' }),
    ).not.toThrow();
  });

  it('should refuse AUTH_DISABLED unless NODE_ENV is development or test, in any case', () => {
    const database = { DATABASE_URL: 'postgres://db/monitor' };
    for (const nodeEnv of ['staging', 'Production', 'PRODUCTION', 'prod', 'local']) {
      expect(() => loadConfig({ ...database, NODE_ENV: nodeEnv, AUTH_DISABLED: 'true' })).toThrow(
        /AUTH_DISABLED/,
      );
    }
    for (const nodeEnv of ['development', 'Development', 'test', 'TEST']) {
      expect(() =>
        loadConfig({ ...database, NODE_ENV: nodeEnv, AUTH_DISABLED: 'true' }),
      ).not.toThrow();
    }
    expect(() => loadConfig({ ...database, AUTH_DISABLED: 'true' })).not.toThrow();
    expect(() => loadConfig({ ...database, NODE_ENV: 'staging' })).not.toThrow();
    // Production is recognised whatever its case: the embedded database is refused there too.
    expect(() => loadConfig({ NODE_ENV: 'Production' })).toThrow(/DATABASE_URL/);
  });

  it('should take PUBLIC_URL as an http(s) URL, default http://localhost:<PORT>, and refuse anything else', () => {
    expect(loadConfig({}).server.publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080' }).server.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://monitor.example.com/' }).server.publicUrl).toBe(
      'https://monitor.example.com',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/monitor//' }).server.publicUrl).toBe(
      'https://example.com/monitor',
    );
    for (const bad of [
      'monitor.example.com',
      'ftp://monitor.example.com',
      'javascript:alert(1)',
      'https://monitor.example.com/?from=env',
      'https://monitor.example.com/#top',
      'https://user:secret@monitor.example.com',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL/);
    }
  });

  it('should refuse JWT verification without JWT_ISSUER when NODE_ENV=production', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/monitor' };
    expect(() =>
      loadConfig({ ...production, JWT_JWKS_URL: 'https://idp.example/jwks.json' }),
    ).toThrow(/JWT_ISSUER/);
    expect(() =>
      loadConfig({
        ...production,
        JWT_JWKS_URL: 'https://idp.example/jwks.json',
        JWT_ISSUER: 'https://idp.example',
      }),
    ).not.toThrow();
    expect(() => loadConfig({ JWT_JWKS_URL: 'https://idp.example/jwks.json' })).not.toThrow();
  });

  it('should bind to loopback when AUTH_DISABLED=true and HOST is not set', () => {
    expect(loadConfig({ AUTH_DISABLED: 'true' }).server.host).toBe('127.0.0.1');
    expect(loadConfig({ AUTH_DISABLED: 'true', HOST: '0.0.0.0' }).server.host).toBe('0.0.0.0');
    expect(loadConfig({}).server.host).toBe('0.0.0.0');
  });

  it('should read the authorized parties and the spend caps when they are set', () => {
    const config = loadConfig({
      JWT_AUTHORIZED_PARTIES: 'https://app.example, https://admin.example',
      JWT_TRUST_EMAIL: 'true',
      MAX_ACTIVE_TASKS_PER_USER: '0',
      RATE_LIMIT_LLM_PER_HOUR: '5',
    });
    expect(config.auth.jwt).toMatchObject({
      authorizedParties: ['https://app.example', 'https://admin.example'],
      trustEmail: true,
    });
    expect(config.tasks.maxActiveTasksPerUser).toBe(0);
    expect(config.rateLimit.llmPerHour).toBe(5);
  });

  it('should never print the password of a bad URL when it reports it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:secret@host/db' })).toThrow(
      /\*\*\*@host/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:secret@host/db' })).not.toThrow(/secret/);
  });

  it('should take DNS_SERVERS as IP addresses with optional ports and refuse anything else', () => {
    expect(
      loadConfig({ DNS_SERVERS: '10.0.0.2, 127.0.0.1:5353,[::1]:53' }).notifications.dnsServers,
    ).toEqual(['10.0.0.2', '127.0.0.1:5353', '[::1]:53']);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/);
  });
});

describe('loadConfig: search provider selection', () => {
  const OPENAI = { OPENAI_API_KEY: 'sk-o' };
  const SEARXNG = {
    SEARXNG_URL: 'http://searx:8080/',
    LLM_BASE_URL: 'http://ollama:11434/v1',
    LLM_MODEL: 'qwen3',
  };

  it('should run without a provider when no provider variables are set', () => {
    expect(loadConfig({}).search.provider).toBeNull();
  });

  it('should pick the first configured provider in registry order when SEARCH_PROVIDER is unset', () => {
    expect(loadConfig({ ...SEARXNG, ...OPENAI }).search.provider).toBe('openai');
    expect(
      loadConfig({ ...SEARXNG, PERPLEXITY_API_KEY: 'p', GEMINI_API_KEY: 'g' }).search.provider,
    ).toBe('gemini');
  });

  it('should skip searxng when SEARCH_PROVIDER is unset and its model is missing', () => {
    expect(
      loadConfig({ SEARXNG_URL: 'http://searx:8080', LLM_BASE_URL: 'http://llm/v1' }).search
        .provider,
    ).toBeNull();
  });

  it('should pick searxng with a chat model and no SearXNG, for tasks with pages', () => {
    const chatOnly = { LLM_BASE_URL: 'http://ollama:11434/v1', LLM_MODEL: 'qwen3' };
    expect(loadConfig(chatOnly).search.provider).toBe('searxng');
    expect(loadConfig({ ...chatOnly, SEARCH_PROVIDER: 'searxng' }).search).toMatchObject({
      provider: 'searxng',
      searxng: { url: null },
    });
  });

  it('should use the named provider when SEARCH_PROVIDER is set and several are configured', () => {
    const config = loadConfig({ ...OPENAI, ...SEARXNG, SEARCH_PROVIDER: 'SearXNG' });
    expect(config.search.provider).toBe('searxng');
    expect(config.search.searxng.url).toBe('http://searx:8080');
    expect(config.search.llm).toEqual({
      baseUrl: 'http://ollama:11434/v1',
      apiKey: null,
      model: 'qwen3',
    });
  });

  it('should fail naming every missing variable when SEARCH_PROVIDER names an unconfigured provider', () => {
    expect(() =>
      loadConfig({ SEARCH_PROVIDER: 'searxng', LLM_BASE_URL: 'http://llm/v1', PORT: 'x' }),
    ).toThrow(/PORT[\s\S]*SEARCH_PROVIDER=searxng: set LLM_MODEL$/m);
  });

  it('should fail listing the names when SEARCH_PROVIDER is unknown', () => {
    const names = alternatives(SEARCH_PROVIDERS.map((provider) => provider.name));
    expect(() => loadConfig({ SEARCH_PROVIDER: 'bing' })).toThrow(
      `SEARCH_PROVIDER: expected ${names}, got "bing"`,
    );
  });

  it('should apply the provider defaults when only the keys are set', () => {
    const config = loadConfig({ ...OPENAI, PERPLEXITY_API_KEY: 'p' });
    expect(config.search.openai).toEqual({
      apiKey: 'sk-o',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-5-mini',
    });
    expect(config.search.perplexity).toEqual({
      apiKey: 'p',
      baseUrl: 'https://api.perplexity.ai',
      model: 'perplexity/sonar',
    });
  });

  it('should read prices and the budget when they are decimals and refuse them otherwise', () => {
    const config = loadConfig({
      PRICE_INPUT_PER_MTOK: '0.15',
      PRICE_PER_SEARCH: '0',
      USER_MONTHLY_BUDGET_USD: '2.5',
    });
    expect(config.search.prices).toEqual({ inputPerMTok: 0.15, outputPerMTok: null, perSearch: 0 });
    expect(config.usage.userMonthlyBudgetUsd).toBe(2.5);
    expect(loadConfig({}).usage.userMonthlyBudgetUsd).toBeNull();
    expect(() =>
      loadConfig({ USER_MONTHLY_BUDGET_USD: '-1', PRICE_OUTPUT_PER_MTOK: 'cheap' }),
    ).toThrow(/PRICE_OUTPUT_PER_MTOK[\s\S]*USER_MONTHLY_BUDGET_USD/);
  });

  it('should take EXECUTION_RETENTION_DAYS as whole days, 0 keeping every execution', () => {
    expect(loadConfig({ EXECUTION_RETENTION_DAYS: '0' }).retention.executionRetentionDays).toBe(0);
    expect(loadConfig({ EXECUTION_RETENTION_DAYS: '30' }).retention.executionRetentionDays).toBe(
      30,
    );
    expect(() => loadConfig({ EXECUTION_RETENTION_DAYS: '-1' })).toThrow(
      /EXECUTION_RETENTION_DAYS/,
    );
    expect(() => loadConfig({ EXECUTION_RETENTION_DAYS: '1.5' })).toThrow(
      /EXECUTION_RETENTION_DAYS/,
    );
  });
});
