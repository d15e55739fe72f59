import { ConfigValidationError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('should apply the contract defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: null,
      dataDir: './data',
      nodeEnv: 'development',
      authDisabled: false,
      mailFrom: 'Monitor <monitor@localhost>',
      webhookAllowPrivateNetworks: false,
      rateLimit: { perMinute: 100, perHour: 1000, perDay: 10000 },
      scheduler: { minIntervalMs: 15 * 60_000, maxIntervalMs: 7 * 86_400_000 },
      workerEnabled: true,
    });
    expect(config.webhookRetryScheduleMs).toEqual([
      5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5,
    ]);
    expect(config.gemini.baseUrl).toBe('https://generativelanguage.googleapis.com');
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

  it('should never print the password of a bad URL when it reports it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:secret@host/db' })).toThrow(
      /\*\*\*@host/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:secret@host/db' })).not.toThrow(/secret/);
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
    expect(loadConfig({}).searchProvider).toBeNull();
  });

  it('should pick the first configured provider in registry order when SEARCH_PROVIDER is unset', () => {
    expect(loadConfig({ ...SEARXNG, ...OPENAI }).searchProvider).toBe('openai');
    expect(
      loadConfig({ ...SEARXNG, PERPLEXITY_API_KEY: 'p', GEMINI_API_KEY: 'g' }).searchProvider,
    ).toBe('gemini');
  });

  it('should skip searxng when SEARCH_PROVIDER is unset and its model is missing', () => {
    expect(
      loadConfig({ SEARXNG_URL: 'http://searx:8080', LLM_BASE_URL: 'http://llm/v1' })
        .searchProvider,
    ).toBeNull();
  });

  it('should use the named provider when SEARCH_PROVIDER is set and several are configured', () => {
    const config = loadConfig({ ...OPENAI, ...SEARXNG, SEARCH_PROVIDER: 'SearXNG' });
    expect(config.searchProvider).toBe('searxng');
    expect(config.searxng.url).toBe('http://searx:8080');
    expect(config.llm).toEqual({ baseUrl: 'http://ollama:11434/v1', apiKey: null, model: 'qwen3' });
  });

  it('should fail naming every missing variable when SEARCH_PROVIDER names an unconfigured provider', () => {
    expect(() =>
      loadConfig({ SEARCH_PROVIDER: 'searxng', LLM_BASE_URL: 'http://llm/v1', PORT: 'x' }),
    ).toThrow(/PORT[\s\S]*SEARCH_PROVIDER=searxng: set SEARXNG_URL, LLM_MODEL/);
  });

  it('should fail listing the names when SEARCH_PROVIDER is unknown', () => {
    expect(() => loadConfig({ SEARCH_PROVIDER: 'bing' })).toThrow(
      'SEARCH_PROVIDER: expected gemini, openai, perplexity or searxng, got "bing"',
    );
  });

  it('should apply the provider defaults when only the keys are set', () => {
    const config = loadConfig({ ...OPENAI, PERPLEXITY_API_KEY: 'p' });
    expect(config.openai).toEqual({
      apiKey: 'sk-o',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-5-mini',
    });
    expect(config.perplexity).toEqual({
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
    expect(config.prices).toEqual({ inputPerMTok: 0.15, outputPerMTok: null, perSearch: 0 });
    expect(config.userMonthlyBudgetUsd).toBe(2.5);
    expect(loadConfig({}).userMonthlyBudgetUsd).toBeNull();
    expect(() =>
      loadConfig({ USER_MONTHLY_BUDGET_USD: '-1', PRICE_OUTPUT_PER_MTOK: 'cheap' }),
    ).toThrow(/PRICE_OUTPUT_PER_MTOK[\s\S]*USER_MONTHLY_BUDGET_USD/);
  });
});
