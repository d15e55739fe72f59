import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProviderUsage } from '../../src/search/provider-usage';
import { describeResponsesRequest, responsesBody } from './openai-stand-in';
import {
  checkText,
  hostnameOf,
  STAND_IN_TOKENS,
  suggestText,
  toolTypes,
  WireStandIn,
  type CheckReplyOptions,
  type Described,
  type HttpReply,
  type RecordedRequest,
  type StandInReply,
  type SuggestReplyOptions,
} from './wire-stand-in';

/** What the Agent API reports as its own cost of one stand-in answer (USD). */
export const PERPLEXITY_REPORTED_COST = 0.0062;

export function perplexityErrorBody(status: number, message?: string): unknown {
  return {
    error: {
      message: message ?? `HTTP ${status}`,
      type: status >= 500 ? 'server_error' : 'invalid_request',
      code: status,
    },
  };
}

function agentBody(
  text: string,
  sources: Array<{ uri: string; title?: string }> = [],
  status?: string,
): unknown {
  return {
    ...responsesBody({
      text,
      searches: 0,
      status,
      items: [
        {
          type: 'search_results',
          queries: ['latest news'],
          results: sources.map((source) => ({
            url: source.uri,
            title: source.title ?? hostnameOf(source.uri),
            snippet: 'A snippet of the page.',
            date: '2030-04-30',
          })),
        },
      ],
      usage: {
        input_tokens: STAND_IN_TOKENS.input,
        output_tokens: STAND_IN_TOKENS.output,
        total_tokens: STAND_IN_TOKENS.input + STAND_IN_TOKENS.output,
        tool_calls_details: { search_web: 1 },
        cost: {
          input_cost: 0.0012,
          output_cost: 0.0003,
          tool_calls_cost: 0.0047,
          total_cost: PERPLEXITY_REPORTED_COST,
        },
      },
    }),
    model: 'perplexity/sonar',
  };
}

/**
 * A stand-in for Perplexity's Agent API (`POST /v1/agent`), including its
 * 200 whose `status` is `failed`.
 */
export class PerplexityStandIn extends WireStandIn {
  readonly callsPerCheck = 1;
  /** The cost is the API's own `usage.cost.total_cost`. */
  readonly checkUsage: ProviderUsage = {
    provider: 'perplexity',
    model: 'perplexity/sonar',
    input_tokens: STAND_IN_TOKENS.input,
    output_tokens: STAND_IN_TOKENS.output,
    search_calls: 1,
    cost_usd: PERPLEXITY_REPORTED_COST,
  };

  constructor(readonly apiKey = `pplx-test-${randomUUID()}`) {
    super();
  }

  env(): Record<string, string> {
    return {
      SEARCH_PROVIDER: 'perplexity',
      PERPLEXITY_API_KEY: this.apiKey,
      PERPLEXITY_BASE_URL: this.baseUrl,
    };
  }

  searchTools(request: RecordedRequest): string[] {
    return toolTypes(request.body);
  }

  defaultReply(request: RecordedRequest): StandInReply {
    return request.kind === 'suggest' ? this.suggestReply() : this.checkReply();
  }

  checkReply(options: CheckReplyOptions = {}): HttpReply {
    return { status: 200, body: agentBody(checkText(options), options.sources) };
  }

  suggestReply(options: SuggestReplyOptions = {}): HttpReply {
    return { status: 200, body: agentBody(suggestText(options)) };
  }

  /** The 200 that reports a failed run. */
  failedRunReply(message: string): HttpReply {
    return {
      status: 200,
      body: {
        ...(agentBody('') as object),
        status: 'failed',
        error: { code: 'internal_error', message },
      },
    };
  }

  errorReply(status: number, message?: string, headers?: Record<string, string>): HttpReply {
    return { status, body: perplexityErrorBody(status, message), headers };
  }

  protected textBody(text: string): unknown {
    return agentBody(text);
  }

  protected errorBody(status: number, message?: string): unknown {
    return perplexityErrorBody(status, message);
  }

  protected describe(request: IncomingMessage, rawBody: string): Described<RecordedRequest> {
    return describeResponsesRequest(
      request,
      rawBody,
      '/v1/agent',
      this.apiKey,
      perplexityErrorBody,
    );
  }
}
