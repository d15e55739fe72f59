import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  checkReply,
  errorReply,
  GeminiStandIn,
  suggestReply,
  textReply,
} from '../../../../test/support/gemini-stand-in';
import { SearchErrorCode } from '../../search-error-code';
import { OutboundHttpClient } from '../../../common/outbound/outbound-http.client';
import { readConfig } from '../../../config/config-slice';
import { schedulerConfig } from '../../../scheduler/scheduler.config';
import {
  DEFAULT_PROVIDER_HTTP_OPTIONS,
  MAX_PROVIDER_ANSWER_BYTES,
  type ProviderHttpOptions,
} from '../../provider-api';
import { ProviderError, type CheckRequest } from '../../search-provider';
import type { ProviderSettings } from '../../search-provider.definition';
import { searchConfig } from '../../search.config';
import type { GeminiConfig } from './gemini-search.config';
import { GeminiSearchProvider } from './gemini-search.provider';

/** Tiny delays so retry tests take milliseconds; the timeout is generous unless a test says so. */
const FAST: Partial<ProviderHttpOptions> = {
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
    outputSchema: null,
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

/** What the search module builds the adapter with, from these variables alone. */
function loadConfig(env: Record<string, string>): ProviderSettings & GeminiConfig {
  const { search, scheduler } = readConfig(env, {
    search: searchConfig,
    scheduler: schedulerConfig,
  });
  return { ...search, scheduler };
}

describe('GeminiSearchProvider', () => {
  let standIn: GeminiStandIn;
  let config: ProviderSettings & GeminiConfig;

  const client = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });

  function provider(options: Partial<ProviderHttpOptions> = {}): GeminiSearchProvider {
    return new GeminiSearchProvider(
      config,
      { client, options: { ...DEFAULT_PROVIDER_HTTP_OPTIONS, ...FAST, ...options } },
      () => undefined,
    );
  }

  beforeAll(async () => {
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
    client.onApplicationShutdown();
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
        values: null,
        usage: {
          provider: 'gemini',
          model: 'gemini-test-model',
          input_tokens: 1200,
          output_tokens: 300,
          search_calls: 1,
          cost_usd: null,
        },
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
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_FAILED);
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
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_UNAVAILABLE);
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
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_FAILED);
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

    it('should fail without retrying when the answer is larger than 2 MB', async () => {
      standIn.respondWith({
        status: 200,
        body: { padding: 'x'.repeat(MAX_PROVIDER_ANSWER_BYTES) },
      });

      const error = await rejection(provider().check(checkRequest()));

      expect(error.message).toBe('Gemini API answered with more than 2 MB');
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_FAILED);
      expect(standIn.requestCount).toBe(1);
    });

    it('should give up with a retryable network error when nothing listens', async () => {
      const port = await closedPort();
      config = { ...config, gemini: { ...config.gemini, baseUrl: `http://127.0.0.1:${port}` } };

      const error = await rejection(provider({ maxRetries: 1 }).check(checkRequest()));

      expect(error.message).toBe('Could not reach the Gemini API after 2 attempts: ECONNREFUSED');
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_UNAVAILABLE);
    });
  });

  describe('timeouts and cancellation', () => {
    it('should fail without retrying when a reply is slower than the timeout', async () => {
      // A timeout long enough for the request to arrive however busy the test process is.
      standIn.respondWith({ delayMs: 6_000 });
      const started = Date.now();

      const error = await rejection(provider({ timeoutMs: 1_000 }).check(checkRequest()));

      expect(error.message).toBe('Gemini API did not answer within 1 s');
      expect((error as ProviderError).code).toBe(SearchErrorCode.PROVIDER_UNAVAILABLE);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(standIn.requestCount).toBe(1);
    });

    it('should stop the request when the caller aborts it', async () => {
      const controller = new AbortController();
      // Aborted once the request has arrived, so it cannot reach the stand-in during a later test.
      standIn.respondWith(() => {
        controller.abort(new Error('execution timed out'));
        return { delayMs: 2_000 };
      });
      const started = Date.now();

      const error = await rejection(provider().check(checkRequest(), controller.signal));

      expect(error.message).toBe('Gemini API request was cancelled: execution timed out');
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it('should stop waiting between retries when the caller aborts', async () => {
      const controller = new AbortController();
      // Aborted once the first attempt has arrived, while the provider waits to retry it.
      standIn.respondWith(() => {
        setTimeout(() => controller.abort(), 50);
        return errorReply(503);
      });

      // Counted by query: a request an earlier test gave up on may still arrive during this one.
      const searchQuery = 'backoff interrupted by the caller';

      const error = await rejection(
        provider({ backoffBaseMs: 10_000, backoffMaxMs: 10_000 }).check(
          checkRequest({ searchQuery }),
          controller.signal,
        ),
      );

      expect(error.message).toMatch(/^Gemini API request was cancelled/);
      expect(standIn.requests.filter((r) => r.promptText.includes(searchQuery))).toHaveLength(1);
    });
  });

  describe('usage', () => {
    it('should count thinking tokens as output and price them when the default model is used', async () => {
      config = loadConfig({ GEMINI_API_KEY: standIn.apiKey, GEMINI_BASE_URL: standIn.baseUrl });
      standIn.enqueue({
        status: 200,
        body: {
          candidates: [
            { content: { parts: [{ text: '{"condition_met": false, "answer": "no"}' }] } },
          ],
          usageMetadata: {
            promptTokenCount: 1_000_000,
            candidatesTokenCount: 100_000,
            thoughtsTokenCount: 300_000,
          },
        },
      });

      const result = await provider().check(checkRequest());

      // 1M input at 0.30 + 0.4M output at 2.50 + one grounded prompt at 0.035
      expect(result.usage).toEqual({
        provider: 'gemini',
        model: 'gemini-2.5-flash',
        input_tokens: 1_000_000,
        output_tokens: 400_000,
        search_calls: 1,
        cost_usd: 1.335,
      });
    });

    it('should keep the tokens on the error when the reply cannot be parsed', async () => {
      standIn.enqueue({
        status: 200,
        body: {
          candidates: [{ content: { parts: [{ text: 'no json here' }] } }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5 },
        },
      });

      const error = (await rejection(provider().check(checkRequest()))) as ProviderError;

      expect(error.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, search_calls: 1 });
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

      const { suggestion: result } = await provider().suggest({
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
      const { suggestion: result } = await provider().suggest({
        prompt: 'Tell me about example releases',
      });

      expect(result.schedule).toBe('0 9 * * *');
      expect(result.notify_behavior).toBe('once');
      expect(result.search_query).toBe('Example product release date announcement');
    });
  });
});
