import type { PromptPage } from '../../src/search/search.types';
import { SearchProvider } from '../../src/search/search-provider';
import { GroundedSearchService } from '../../src/tasks/grounded-search.service';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { OpenAiStandIn } from '../support/openai-stand-in';
import { PageServer } from '../support/page-server';
import { PerplexityStandIn } from '../support/perplexity-stand-in';
import { SearxngStandIn } from '../support/searxng-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import type { RecordedRequest, WireStandIn } from '../support/wire-stand-in';
import { uniqueQuery } from '../tasks/task-api';

// The e2e project's testTimeout is not applied per project by Jest: set it here.
jest.setTimeout(30_000);

type AnyStandIn = WireStandIn<RecordedRequest<object>>;

interface PageCallCase {
  name: string;
  create: () => AnyStandIn;
  /**
   * Searches the adapter bills for a page call: Gemini and SearXNG count them themselves (none
   * without search); OpenAI and Perplexity bill what their API reports, here the stand-in's one.
   */
  searchCalls: number;
}

const CASES: PageCallCase[] = [
  { name: 'gemini', create: () => new GeminiStandIn(), searchCalls: 0 },
  { name: 'openai', create: () => new OpenAiStandIn(), searchCalls: 1 },
  { name: 'perplexity', create: () => new PerplexityStandIn(), searchCalls: 1 },
  { name: 'searxng', create: () => new SearxngStandIn(), searchCalls: 0 },
];

const CHANGED_PAGE: PromptPage = {
  url: 'https://shop.example/espresso',
  status: 'changed',
  title: 'Espresso machine',
  text: 'Espresso machine\nPrice: 249 EUR\nIn stock',
  added: ['Price: 249 EUR'],
  removed: ['Price: 299 EUR'],
};

describe.each(CASES)('A page call on $name', ({ name, create, searchCalls }) => {
  let standIn: AnyStandIn;
  let pages: PageServer;
  let testApp: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    standIn = await create().start();
    pages = await new PageServer().start();
    testApp = await startTestApp({ search: standIn });
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
    await pages.stop();
    await standIn.stop();
  });

  beforeEach(() => standIn.reset());

  /** Every request the stand-in received: one model call, and no search tool in any of them. */
  function expectOneCallWithoutSearch(): RecordedRequest<object> {
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests.flatMap((request) => standIn.searchTools(request))).toEqual([]);
    return standIn.requests[0];
  }

  it('should make one call without its search tool and show the pages as data when a check carries pages', async () => {
    const query = uniqueQuery('espresso price');
    standIn.enqueue(standIn.checkReply({ conditionMet: true, answer: 'It costs 249 EUR now.' }));
    const result = await testApp.app.get(SearchProvider).check({
      searchQuery: query,
      conditionDescription: 'The espresso machine costs less than 250 EUR',
      previousState: null,
      previousCheckAt: null,
      now: new Date(),
      outputSchema: null,
      pages: [CHANGED_PAGE],
    });
    const request = expectOneCallWithoutSearch();
    expect(request.promptText).toContain(query);
    expect(request.promptText).toContain('<<<PAGES');
    expect(request.promptText).toContain('Price: 249 EUR\\nIn stock');
    expect(request.promptText).toContain('"removed": [\n      "Price: 299 EUR"');
    expect(request.systemText).toContain('This check cannot search the web');
    expect(result).toMatchObject({ conditionMet: true, answer: 'It costs 249 EUR now.' });
    expect(result.usage).toMatchObject({ provider: name, search_calls: searchCalls });
  });

  it('should fetch the pages, call the model once without search and answer the page results when a preview carries pages', async () => {
    const query = uniqueQuery('changelog');
    const good = pages.fixed(
      '/changelog',
      200,
      'text/html',
      '<title>Changelog</title><h1>Version 2.0 released</h1>',
    );
    const missing = pages.fixed('/gone', 404, 'text/plain', 'not here');
    const preview = await testApp.app.get(GroundedSearchService).preview(user.id, {
      search_query: query,
      pages: [{ url: good }, { url: missing }],
    });
    const request = expectOneCallWithoutSearch();
    expect(request.promptText).toContain('Version 2.0 released');
    expect(request.promptText).not.toContain('not here');
    expect(preview).toMatchObject({
      condition_met: false,
      values: null,
      grounding_sources: [{ uri: good, title: 'Changelog' }],
      page_results: [
        { url: good, status: 'new', http_status: 200, title: 'Changelog', error: null },
        { url: missing, status: 'error', http_status: 404, title: null, error: 'HTTP 404' },
      ],
    });
    const { rows } = await testApp.db.query(
      'SELECT count(*)::int AS snapshots FROM page_snapshots',
    );
    expect(rows[0]).toEqual({ snapshots: 0 });
  });

  it('should call no model and answer condition_met false when no page of a preview can be read', async () => {
    const missing = pages.fixed('/missing', 503, 'text/plain', 'down');
    const preview = await testApp.app.get(GroundedSearchService).preview(user.id, {
      search_query: uniqueQuery('status page'),
      pages: [{ url: missing }],
    });
    expect(standIn.requestCount).toBe(0);
    expect(preview).toEqual({
      condition_met: false,
      answer: `All pages failed: ${missing}: HTTP 503`,
      reasoning: `All pages failed: ${missing}: HTTP 503. No page could be read, so no model was asked.`,
      values: null,
      grounding_sources: [],
      page_results: [
        {
          url: missing,
          render: 'http',
          final_url: missing,
          status: 'error',
          http_status: 503,
          title: null,
          error: 'HTTP 503',
          added: [],
          removed: [],
          new_items: null,
          values: null,
          value_errors: null,
          fetched_at: expect.any(String),
        },
      ],
    });
  });
});
