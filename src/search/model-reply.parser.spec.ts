import {
  citedResultIds,
  findFirstJsonObject,
  isFiveFieldCron,
  MAX_REPLY_TEXT_BYTES,
  parseCheckText,
  parseNextCheckAt,
  parseSuggestText,
  truncateText,
  uniqueSources,
} from './model-reply.parser';
import { SearchErrorCode } from './search-error-code';
import { groundingSources, replyText } from './providers/gemini/gemini-search.provider';
import { ProviderError, type SuggestRequest } from './search-provider';

// The replies below arrive in Gemini's wire format, the one the parser was first written for.
const extractReplyText = (reply: unknown) => replyText(reply)[0];
const extractGroundingSources = groundingSources;

function parseCheckReply(reply: unknown, now: Date) {
  const [text, hint] = replyText(reply);
  return { ...parseCheckText(text, now, hint), groundingSources: groundingSources(reply) };
}

function parseSuggestReply(reply: unknown, request: SuggestRequest) {
  const [text, hint] = replyText(reply);
  return parseSuggestText(text, request, hint);
}

const NOW = new Date('2030-05-01T12:00:00.000Z');

/** A generateContent body whose first candidate says `text` (one part per string). */
function body(
  text: string | string[],
  extra: { finishReason?: string; groundingChunks?: unknown[] } = {},
): unknown {
  const texts = Array.isArray(text) ? text : [text];
  return {
    candidates: [
      {
        content: { role: 'model', parts: texts.map((part) => ({ text: part })) },
        finishReason: extra.finishReason ?? 'STOP',
        groundingMetadata: { groundingChunks: extra.groundingChunks ?? [] },
      },
    ],
  };
}

function checkJson(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    condition_met: true,
    answer: 'Version 2.0 was released on 30 April.',
    reasoning: 'The release notes are dated 2030-04-30.',
    current_state: { latest_version: '2.0' },
    next_check_at: '2030-05-02T09:00:00Z',
    ...overrides,
  });
}

function parseError(action: () => unknown): ProviderError {
  try {
    action();
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('findFirstJsonObject', () => {
  it('should return the object when the text is bare JSON', () => {
    expect(findFirstJsonObject('{"a": 1, "b": {"c": [1, 2]}}')).toEqual({ a: 1, b: { c: [1, 2] } });
  });

  it('should read the object when it is wrapped in a json fence', () => {
    expect(findFirstJsonObject('```json\n{"a": "fenced"}\n```')).toEqual({ a: 'fenced' });
  });

  it('should skip prose braces when they come before the object', () => {
    const text = 'I searched for {the query} as asked.\n{"a": 1}\nThat is all {really}.';
    expect(findFirstJsonObject(text)).toEqual({ a: 1 });
  });

  it('should keep braces and escaped quotes when they are inside strings', () => {
    const text = 'Result: {"answer": "use {x} and \\"}\\" here", "n": 2} and then {"other": 3}';
    expect(findFirstJsonObject(text)).toEqual({ answer: 'use {x} and "}" here', n: 2 });
  });

  it('should return the first object when two objects follow each other', () => {
    expect(findFirstJsonObject('{"first": true} {"second": true}')).toEqual({ first: true });
  });

  it('should return null when no object is in the text', () => {
    expect(findFirstJsonObject('no JSON here, only [1, 2] and {broken')).toBeNull();
  });
});

describe('reply size and search time', () => {
  const request: SuggestRequest = { prompt: 'Tell me when the example product ships' };
  /** A check reply of exactly `bytes` bytes in UTF-8: the JSON followed by `filler`. */
  const replyOf = (bytes: number, filler = ' ') => {
    const json = checkJson();
    return json + filler.repeat((bytes - json.length) / Buffer.byteLength(filler));
  };

  it('should refuse with Provider reply too large when the text is over 256 kB', () => {
    const text = replyOf(300 * 1024);
    const error = parseError(() => parseCheckText(text, NOW));
    expect(error.message).toBe('Provider reply too large');
    expect(error.code).toBe(SearchErrorCode.PROVIDER_FAILED);
    expect(parseError(() => parseSuggestText(text, request)).message).toBe(
      'Provider reply too large',
    );
  });

  it('should refuse when the text is within 256 kB characters but over it in UTF-8 bytes', () => {
    const text = replyOf(MAX_REPLY_TEXT_BYTES + 2, 'é');
    expect(text.length).toBeLessThan(MAX_REPLY_TEXT_BYTES);
    expect(parseError(() => parseCheckText(text, NOW)).message).toBe('Provider reply too large');
  });

  it('should read the reply when it is exactly 256 kB', () => {
    const text = replyOf(MAX_REPLY_TEXT_BYTES);
    expect(Buffer.byteLength(text)).toBe(MAX_REPLY_TEXT_BYTES);
    expect(parseCheckText(text, NOW).answer).toBe('Version 2.0 was released on 30 April.');
  });

  it.each([
    ['200,000 braces', '{'.repeat(200_000)],
    ['braces before the object', `${'{'.repeat(200_000)}${checkJson()}`],
    ['braces and quotes', '{"'.repeat(120_000)],
  ])('should search a reply of %s in steps linear in its length', (_label, text) => {
    const counter = { steps: 0 };
    findFirstJsonObject(text, counter);
    expect(counter.steps).toBeGreaterThanOrEqual(text.length);
    expect(counter.steps).toBeLessThanOrEqual(3 * text.length);
  });
});

describe('extractReplyText', () => {
  it('should concatenate parts when the answer is split over several parts', () => {
    expect(extractReplyText(body(['{"a":', ' 1}']))).toBe('{"a": 1}');
  });

  it('should ignore thought parts when a thinking model includes them', () => {
    const reply = {
      candidates: [
        {
          content: { parts: [{ text: 'thinking {"a": 0}', thought: true }, { text: '{"a": 1}' }] },
        },
      ],
    };
    expect(extractReplyText(reply)).toBe('{"a": 1}');
  });

  it('should throw when there are no candidates', () => {
    expect(parseError(() => extractReplyText({ candidates: [] })).message).toBe(
      "Could not parse the model's reply: the response has no candidates",
    );
  });

  it('should throw a blocked error when the prompt was blocked', () => {
    const error = parseError(() => extractReplyText({ promptFeedback: { blockReason: 'SAFETY' } }));
    expect(error.message).toBe('Gemini blocked the request (block reason: SAFETY)');
    expect(error.code).toBe(SearchErrorCode.PROVIDER_FAILED);
  });

  it('should throw a blocked error when the finish reason is SAFETY', () => {
    const reply = { candidates: [{ finishReason: 'SAFETY', content: { parts: [] } }] };
    expect(parseError(() => extractReplyText(reply)).message).toBe(
      'Gemini blocked its reply (finish reason: SAFETY)',
    );
  });

  it('should throw when the body is not an object', () => {
    expect(parseError(() => extractReplyText('<html>')).message).toBe(
      "Could not parse the model's reply: the response body is not a JSON object",
    );
  });
});

describe('extractGroundingSources', () => {
  it('should skip chunks without uri and de-duplicate when uris repeat', () => {
    const reply = body('{}', {
      groundingChunks: [
        { web: { uri: 'https://example.com/a', title: 'Example A' } },
        { web: { title: 'no uri' } },
        { retrievedContext: { uri: 'https://not-web.example' } },
        { web: { uri: 'https://example.com/a', title: 'Duplicate' } },
        { web: { uri: 'https://news.example.org/story?id=1' } },
        { web: { uri: 'https://blank-title.example.net/', title: '  ' } },
      ],
    });
    expect(extractGroundingSources(reply)).toEqual([
      { uri: 'https://example.com/a', title: 'Example A' },
      { uri: 'https://news.example.org/story?id=1', title: 'news.example.org' },
      { uri: 'https://blank-title.example.net/', title: 'blank-title.example.net' },
    ]);
  });

  it('should keep only http and https sources when a chunk holds a javascript: uri', () => {
    const reply = body('{}', {
      groundingChunks: [
        { web: { uri: 'javascript:alert(document.cookie)', title: 'Click me' } },
        { web: { uri: 'https://example.com/a', title: 'Example A' } },
      ],
    });
    expect(extractGroundingSources(reply)).toEqual([
      { uri: 'https://example.com/a', title: 'Example A' },
    ]);
  });

  it('should return an empty list when there is no grounding metadata', () => {
    expect(extractGroundingSources({ candidates: [{ content: { parts: [] } }] })).toEqual([]);
  });
});

describe('uniqueSources', () => {
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    '  javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://files.example.com/a',
    'mailto:someone@example.com',
    'example.com/no-scheme',
    '//example.com/scheme-relative',
  ])('should drop the source when its uri is %j', (uri) => {
    expect(uniqueSources([{ uri, title: 'Source' }])).toEqual([]);
  });

  it('should keep the source when its uri is http or https in any case', () => {
    expect(
      uniqueSources([
        { uri: 'http://example.com/a' },
        { uri: ' HTTPS://Example.com/b ', title: 'B' },
      ]),
    ).toEqual([
      { uri: 'http://example.com/a', title: 'example.com' },
      { uri: 'HTTPS://Example.com/b', title: 'B' },
    ]);
  });
});

describe('parseCheckReply', () => {
  it('should return every field when the reply is well formed', () => {
    const reply = body(checkJson(), {
      groundingChunks: [{ web: { uri: 'https://example.com/release', title: 'example.com' } }],
    });
    expect(parseCheckReply(reply, NOW)).toEqual({
      conditionMet: true,
      answer: 'Version 2.0 was released on 30 April.',
      reasoning: 'The release notes are dated 2030-04-30.',
      currentState: { latest_version: '2.0' },
      nextCheckAt: new Date('2030-05-02T09:00:00Z'),
      groundingSources: [{ uri: 'https://example.com/release', title: 'example.com' }],
    });
  });

  it('should coerce condition_met when it is the string "false"', () => {
    expect(parseCheckReply(body(checkJson({ condition_met: 'False' })), NOW).conditionMet).toBe(
      false,
    );
  });

  it('should throw when condition_met is neither boolean nor "true"/"false"', () => {
    expect(
      parseError(() => parseCheckReply(body(checkJson({ condition_met: 'yes' })), NOW)).message,
    ).toBe('Could not parse the model\'s reply: "condition_met" must be true or false');
  });

  it('should throw when answer is missing', () => {
    const text = JSON.stringify({ condition_met: false, reasoning: 'r' });
    expect(parseError(() => parseCheckReply(body(text), NOW)).message).toBe(
      'Could not parse the model\'s reply: "answer" must be a string',
    );
  });

  it('should throw when reasoning is not a string', () => {
    expect(parseError(() => parseCheckReply(body(checkJson({ reasoning: 42 })), NOW)).message).toBe(
      'Could not parse the model\'s reply: "reasoning" must be a string',
    );
  });

  it('should default reasoning and current_state when they are missing or not objects', () => {
    const text = JSON.stringify({ condition_met: false, answer: 'a', current_state: [1, 2] });
    const result = parseCheckReply(body(text), NOW);
    expect(result.reasoning).toBe('');
    expect(result.currentState).toEqual({});
    expect(result.nextCheckAt).toBeNull();
  });

  it('should throw a clear error when the reply has no JSON object', () => {
    const error = parseError(() => parseCheckReply(body('I could not find anything.'), NOW));
    expect(error.message).toBe("Could not parse the model's reply: no JSON object found");
    expect(error.code).toBe(SearchErrorCode.PROVIDER_FAILED);
  });

  it('should mention the finish reason when a truncated reply has no JSON object', () => {
    const reply = body('{"condition_met": true, "answer": "cut off', {
      finishReason: 'MAX_TOKENS',
    });
    expect(parseError(() => parseCheckReply(reply, NOW)).message).toBe(
      "Could not parse the model's reply: no JSON object found (finish reason: MAX_TOKENS)",
    );
  });
});

describe('citedResultIds', () => {
  it('should return the integer ids when the reply cites results', () => {
    expect(citedResultIds('{"condition_met": true, "source_ids": [2, "3", "x", 1.5]}')).toEqual([
      2, 3,
    ]);
  });

  it('should return an empty list when the reply has no source_ids', () => {
    expect(citedResultIds('{"condition_met": false}')).toEqual([]);
  });
});

describe('parseNextCheckAt', () => {
  it('should return a date when the value is a future ISO timestamp', () => {
    expect(parseNextCheckAt('2030-05-01T13:30:00+01:00', NOW)).toEqual(
      new Date('2030-05-01T12:30:00Z'),
    );
  });

  it.each([
    ['in the past', '2030-04-30T00:00:00Z'],
    ['equal to now', NOW.toISOString()],
    ['unparseable', 'tomorrow morning'],
    ['null', null],
    ['a number', 1893456000000],
    ['empty', ''],
  ])('should return null when the value is %s', (_label, value) => {
    expect(parseNextCheckAt(value, NOW)).toBeNull();
  });
});

describe('isFiveFieldCron', () => {
  it.each([
    '0 9 * * *',
    '*/15 * * * *',
    '0 8-18/2 * * MON-FRI',
    '30 6 1,15 JAN,jul 0',
    '0 0 * * 7',
  ])('should accept %s when it is a valid 5-field expression', (expression) => {
    expect(isFiveFieldCron(expression)).toBe(true);
  });

  it.each([
    '0 9 * *',
    '0 0 9 * * *',
    '@daily',
    '60 9 * * *',
    '0 24 * * *',
    '0 9 0 * *',
    '0 9 * 13 *',
    '*/0 * * * *',
    '0 9 ? * *',
    '5-1 * * * *',
    'every day',
  ])('should reject %s when it is not a valid 5-field expression', (expression) => {
    expect(isFiveFieldCron(expression)).toBe(false);
  });
});

describe('truncateText', () => {
  it('should cut at a word boundary when one is close to the limit', () => {
    expect(truncateText('alpha beta gamma delta', 20)).toBe('alpha beta gamma');
  });

  it('should cut mid-word when no boundary is close to the limit', () => {
    expect(truncateText('a' + 'b'.repeat(30), 10)).toBe('abbbbbbbbb');
  });
});

describe('parseSuggestReply', () => {
  const request = { prompt: 'Tell me when the Nintendo Switch 3 release date is announced' };

  function suggestion(fields: Record<string, unknown>): unknown {
    return body(`\`\`\`json\n${JSON.stringify(fields)}\n\`\`\``);
  }

  it('should return the suggestion when every field is valid', () => {
    const reply = suggestion({
      name: 'Switch 3 release date',
      search_query: 'Nintendo Switch 3 release date announcement',
      condition_description: 'Nintendo has officially announced the Switch 3 release date',
      schedule: '0 */6 * * *',
      notify_behavior: 'once',
    });
    expect(parseSuggestReply(reply, request)).toEqual({
      name: 'Switch 3 release date',
      search_query: 'Nintendo Switch 3 release date announcement',
      condition_description: 'Nintendo has officially announced the Switch 3 release date',
      schedule: '0 */6 * * *',
      notify_behavior: 'once',
    });
  });

  it('should fall back to defaults when schedule and notify_behavior are invalid', () => {
    const reply = suggestion({
      name: 'n'.repeat(250),
      search_query: 'Nintendo Switch 3 release date announcement',
      condition_description: 'Released',
      schedule: 'every morning',
      notify_behavior: 'sometimes',
    });
    const result = parseSuggestReply(reply, request);
    expect(result.schedule).toBe('0 9 * * *');
    expect(result.notify_behavior).toBe('once');
    expect(result.name).toBe('n'.repeat(200));
    expect(result.condition_description).toBe('Nintendo Switch 3 release date announcement');
  });

  it('should accept "ALWAYS" when notify_behavior differs only in case', () => {
    const reply = suggestion({
      search_query: 'bitcoin price in US dollars',
      notify_behavior: 'ALWAYS',
    });
    const result = parseSuggestReply(reply, request);
    expect(result.notify_behavior).toBe('always');
    expect(result.name).toBe('New Monitor');
    expect(result.condition_description).toBe('bitcoin price in US dollars');
  });

  it('should use the prompt when the suggested search_query is shorter than 10 characters', () => {
    const result = parseSuggestReply(suggestion({ search_query: 'Switch 3' }), request);
    expect(result.search_query).toBe(request.prompt);
  });

  it('should pad the search_query when it and the prompt are both too short', () => {
    const result = parseSuggestReply(suggestion({ search_query: 'BTC' }), { prompt: 'btc' });
    expect(result.search_query).toBe('BTC latest news');
    expect(result.search_query.length).toBeGreaterThanOrEqual(10);
  });

  it('should clamp search_query and condition_description when they exceed 500 characters', () => {
    const long = 'word '.repeat(200);
    const result = parseSuggestReply(
      suggestion({ search_query: long, condition_description: long }),
      request,
    );
    expect(result.search_query.length).toBeLessThanOrEqual(500);
    expect(result.search_query.length).toBeGreaterThan(400);
    expect(result.condition_description.length).toBeLessThanOrEqual(500);
    expect(result.search_query.endsWith('word')).toBe(true);
  });

  it('should throw when search_query is missing', () => {
    expect(parseError(() => parseSuggestReply(suggestion({ name: 'x' }), request)).message).toBe(
      'Could not parse the model\'s reply: "search_query" must be a non-empty string',
    );
  });
});
