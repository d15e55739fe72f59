import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  checkReply,
  errorReply,
  GeminiStandIn,
  suggestReply,
  textReply,
} from '../../test/support/gemini-stand-in';
import { loadConfig, type AppConfig } from '../config/app-config';
import { AppConfigModule } from '../config/config.module';
import { GeminiSearchProvider, type GeminiProviderOptions } from './gemini-search.provider';
import {
  ProviderError,
  ProviderNotConfiguredError,
  SearchProvider,
  type CheckRequest,
} from './search-provider';
import { SearchModule } from './search.module';

/** Tiny delays so retry tests take milliseconds; the timeout is generous unless a test says so. */
const FAST: Partial<GeminiProviderOptions> = {
  backoffBaseMs: 1,
  backoffMaxMs: 5,
  timeoutMs: 5_000,
};

const NOW = new Date();

function checkRequest(overrides: Partial<CheckRequest> = {}): CheckRequest {
  return {
    searchQuery: 'Nintendo Switch 3 release date',
    conditionDescription: 'The release date has been officially announced',
    previousState: { announced: false },
    previousCheckAt: new Date(NOW.getTime() - 3_600_000),
    now: NOW,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

/** A port nothing listens on, for connection-refused errors. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GeminiSearchProvider', () => {
  let standIn: GeminiStandIn;
  let config: AppConfig;

  function provider(options: Partial<GeminiProviderOptions> = {}): GeminiSearchProvider {
    return new GeminiSearchProvider(config, { ...FAST, ...options });
  }

  beforeAll(async () => {
    // Retry warnings are expected here and would only clutter the test output.
    Logger.overrideLogger(false);
    standIn = await new GeminiStandIn().start();
  });

  beforeEach(() => {
    standIn.reset();
    config = loadConfig({
      GEMINI_API_KEY: standIn.apiKey,
      GEMINI_BASE_URL: standIn.baseUrl,
      GEMINI_MODEL: 'gemini-test-model',
    });
  });

  afterAll(async () => {
    await standIn.stop();
  });

  describe('check', () => {
    it('should send one grounded generateContent request when checking', async () => {
      await provider().check(checkRequest());

      expect(standIn.requests).toHaveLength(1);
      const request = standIn.requests[0];
      expect(request.model).toBe('gemini-test-model');
      expect(request.headers['x-goog-api-key']).toBe(standIn.apiKey);
      expect(request.body.tools).toEqual([{ google_search: {} }]);
      expect(request.body.generationConfig).toEqual({ temperature: 0.2 });
      expect(request.systemText).toContain('"condition_met"');
      expect(request.promptText).toContain(`Current time: ${NOW.toISOString()}`);
      expect(request.promptText).toContain('"announced": false');
      expect(request.promptText).toContain('Nintendo Switch 3 release date');
      expect(request.kind).toBe('check');
    });

    it('should return the parsed result and sources when the reply is grounded', async () => {
      const nextCheckAt = new Date(NOW.getTime() + 2 * 3_600_000);
      standIn.enqueue(
        checkReply({
          conditionMet: true,
          answer: 'Nintendo announced a 5 June release.',
          reasoning: 'The official press release is dated today.',
          currentState: { announced: true, date: '2030-06-05' },
          nextCheckAt,
          sources: [
            { uri: 'https://nintendo.example/press', title: 'nintendo.example' },
            { uri: 'https://news.example.org/switch-3' },
            { uri: 'https://nintendo.example/press', title: 'duplicate' },
          ],
        }),
      );

      const result = await provider().check(checkRequest());

      expect(result).toEqual({
        conditionMet: true,
        answer: 'Nintendo announced a 5 June release.',
        reasoning: 'The official press release is dated today.',
        currentState: { announced: true, date: '2030-06-05' },
        nextCheckAt,
        groundingSources: [
          { uri: 'https://nintendo.example/press', title: 'nintendo.example' },
          { uri: 'https://news.example.org/switch-3', title: 'news.example.org' },
        ],
        rawText: expect.stringContaining('"condition_met": true'),
      });
    });

    it('should parse the reply when the JSON is fenced, surrounded by prose and split', async () => {
      standIn.enqueue(
        checkReply({
          conditionMet: true,
          answer: 'Yes {really}',
          fenced: true,
          prose: true,
          splitParts: true,
        }),
      );

      const result = await provider().check(checkRequest());

      expect(result.conditionMet).toBe(true);
      expect(result.answer).toBe('Yes {really}');
      expect(result.rawText).toMatch(/^Here is the result[\s\S]*```json[\s\S]*```/);
    });

    it('should ignore next_check_at when the model picks a time in the past', async () => {
      standIn.enqueue(checkReply({ nextCheckAt: new Date(NOW.getTime() - 60_000) }));

      expect((await provider().check(checkRequest())).nextCheckAt).toBeNull();
    });

    it('should fail with a clear error and not retry when the reply has no JSON object', async () => {
      standIn.enqueue(textReply('Sorry, I cannot help with that.'));

      const error = await rejection(provider().check(checkRequest()));

      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toBe("Could not parse the model's reply: no JSON object found");
      expect((error as ProviderError).retryable).toBe(false);
      expect(standIn.requestCount).toBe(1);
    });

    it('should fail with a blocked error when Gemini blocks the prompt', async () => {
      standIn.enqueue({ status: 200, body: { promptFeedback: { blockReason: 'SAFETY' } } });

      const error = await rejection(provider().check(checkRequest()));

      expect(error.message).toBe('Gemini blocked the request (block reason: SAFETY)');
    });
  });

  describe('retries', () => {
    it('should retry when the API answers 429 and 503 and then succeed', async () => {
      standIn.enqueue(errorReply(429), errorReply(503), checkReply({ answer: 'third time' }));

      const result = await provider().check(checkRequest());

      expect(result.answer).toBe('third time');
      expect(standIn.requestCount).toBe(3);
    });

    it('should give up with a retryable error naming the status when every retry fails', async () => {
      standIn.respondWith(errorReply(503));

      const error = await rejection(provider().check(checkRequest()));

      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toBe(
        'Gemini API request failed with HTTP 503 after 4 attempts: The model is overloaded. Please try again later.',
      );
      expect((error as ProviderError).retryable).toBe(true);
      expect(standIn.requestCount).toBe(4);
    });

    it('should not retry and should include the API message when the API answers 400', async () => {
      standIn.respondWith(
        errorReply(400, '* GenerateContentRequest.contents: contents is not specified'),
      );

      const error = await rejection(provider().check(checkRequest()));

      expect(error.message).toBe(
        'Gemini API rejected the request with HTTP 400: * GenerateContentRequest.contents: contents is not specified',
      );
      expect((error as ProviderError).retryable).toBe(false);
      expect(standIn.requestCount).toBe(1);
    });

    it('should never reveal the API key when the API error echoes it', async () => {
      standIn.respondWith(errorReply(400, `Bad key ${standIn.apiKey} for this project`));

      const error = await rejection(provider().check(checkRequest()));

      expect(error.message).not.toContain(standIn.apiKey);
      expect(error.message).toBe(
        'Gemini API rejected the request with HTTP 400: Bad key [redacted] for this project',
      );
    });

    it('should report the API message without retrying when the API key is wrong', async () => {
      config = { ...config, gemini: { ...config.gemini, apiKey: 'wrong-key' } };

      const error = await rejection(provider().check(checkRequest()));

      expect(error.message).toBe(
        'Gemini API rejected the request with HTTP 403: API key not valid. Please pass a valid API key.',
      );
      expect(standIn.requestCount).toBe(1);
      expect(standIn.lastRequest?.authorized).toBe(false);
    });

    it('should wait for Retry-After, capped, when the API sends one', async () => {
      standIn.enqueue(errorReply(429, undefined, { 'retry-after': '30' }), checkReply());

      await provider({ retryAfterCapMs: 150 }).check(checkRequest());

      const [first, second] = standIn.requests;
      const gap = second.receivedAt - first.receivedAt;
      expect(gap).toBeGreaterThanOrEqual(140);
      expect(gap).toBeLessThan(5_000);
    });

    it('should wait for the RetryInfo delay when a 429 body carries one', async () => {
      standIn.enqueue(
        {
          status: 429,
          body: {
            error: {
              code: 429,
              message: 'Quota exceeded',
              status: 'RESOURCE_EXHAUSTED',
              details: [
                { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.12s' },
              ],
            },
          },
        },
        checkReply(),
      );

      await provider().check(checkRequest());

      const [first, second] = standIn.requests;
      expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(110);
    });

    it('should retry when the connection drops and then succeed', async () => {
      standIn.enqueue({ dropConnection: true }, checkReply({ answer: 'after a reset' }));

      const result = await provider().check(checkRequest());

      expect(result.answer).toBe('after a reset');
      expect(standIn.requestCount).toBe(2);
    });

    it('should give up with a retryable network error when nothing listens', async () => {
      const port = await closedPort();
      config = { ...config, gemini: { ...config.gemini, baseUrl: `http://127.0.0.1:${port}` } };

      const error = await rejection(provider({ maxRetries: 1 }).check(checkRequest()));

      expect(error.message).toBe('Could not reach the Gemini API after 2 attempts: ECONNREFUSED');
      expect((error as ProviderError).retryable).toBe(true);
    });
  });

  describe('timeouts and cancellation', () => {
    it('should fail without retrying when a reply is slower than the timeout', async () => {
      standIn.respondWith({ delayMs: 2_000 });
      const started = Date.now();

      const error = await rejection(provider({ timeoutMs: 100 }).check(checkRequest()));

      expect(error.message).toBe('Gemini API did not answer within 0.1 s');
      expect((error as ProviderError).retryable).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(standIn.requestCount).toBe(1);
    });

    it('should stop the request when the caller aborts it', async () => {
      standIn.respondWith({ delayMs: 2_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('execution timed out')), 50);
      const started = Date.now();

      const error = await rejection(provider().check(checkRequest(), controller.signal));

      expect(error.message).toBe('Gemini API request was cancelled: execution timed out');
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it('should stop waiting between retries when the caller aborts', async () => {
      standIn.respondWith(errorReply(503));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);

      const error = await rejection(
        provider({ backoffBaseMs: 10_000, backoffMaxMs: 10_000 }).check(
          checkRequest(),
          controller.signal,
        ),
      );

      expect(error.message).toMatch(/^Gemini API request was cancelled/);
      expect(standIn.requestCount).toBe(1);
    });
  });

  describe('configuration', () => {
    it('should refuse to call the API when no API key is configured', async () => {
      config = { ...config, gemini: { ...config.gemini, apiKey: null } };
      const unconfigured = provider();

      expect(unconfigured.isConfigured()).toBe(false);
      await expect(unconfigured.check(checkRequest())).rejects.toBeInstanceOf(
        ProviderNotConfiguredError,
      );
      await expect(unconfigured.suggest({ prompt: 'anything at all' })).rejects.toBeInstanceOf(
        ProviderNotConfiguredError,
      );
      expect(standIn.requestCount).toBe(0);
    });

    it('should report configured when an API key is set', () => {
      expect(provider().isConfigured()).toBe(true);
    });

    it('should resolve SearchProvider to the Gemini provider when SearchModule is imported', async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [AppConfigModule.forRoot(config), SearchModule],
      }).compile();

      const resolved = moduleRef.get(SearchProvider);

      expect(resolved).toBeInstanceOf(GeminiSearchProvider);
      expect(resolved.name).toBe('gemini');
      await moduleRef.close();
    });
  });

  describe('suggest', () => {
    it('should return the validated suggestion when the model answers', async () => {
      standIn.enqueue(
        suggestReply({
          name: 'Switch 3 release',
          searchQuery: 'Nintendo Switch 3 release date',
          conditionDescription: 'Nintendo has announced the Switch 3 release date',
          schedule: 'daily at nine',
          notifyBehavior: 'always',
          fenced: true,
        }),
      );

      const result = await provider().suggest({
        prompt: 'Tell me when the Switch 3 comes out',
        currentTask: { name: 'Old name', schedule: '0 * * * *' },
      });

      expect(result).toEqual({
        name: 'Switch 3 release',
        search_query: 'Nintendo Switch 3 release date',
        condition_description: 'Nintendo has announced the Switch 3 release date',
        schedule: '0 9 * * *',
        notify_behavior: 'always',
      });
      const request = standIn.lastRequest;
      expect(request?.kind).toBe('suggest');
      expect(request?.promptText).toContain('Tell me when the Switch 3 comes out');
      expect(request?.promptText).toContain('"name": "Old name"');
      expect(request?.body.tools).toEqual([{ google_search: {} }]);
    });

    it('should answer from the default handler when nothing is queued', async () => {
      const result = await provider().suggest({ prompt: 'Tell me about example releases' });

      expect(result.schedule).toBe('0 9 * * *');
      expect(result.notify_behavior).toBe('once');
      expect(result.search_query).toBe('Example product release date announcement');
    });
  });
});
