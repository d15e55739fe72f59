import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';

/** A task body whose `extra` field holds arrays nested so that the body nests `levels` deep. */
function nestedBody(levels: number): string {
  const arrays = levels - 1;
  return `{"search_query":"Has the nested example shipped?","state":"paused","extra":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;
}

describe('Errors, health and documentation', () => {
  let testApp: TestApp;
  let user: TestUser;
  const logLines: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({
      logDestination: { write: (chunk: string) => void logLines.push(...chunk.split('\n')) },
    });
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should answer 404 {"detail":"Not Found"} for an unknown path', async () => {
    expectDetail(await testApp.http.get('/no/such/path'), 404, 'Not Found');
    expectDetail(
      await testApp.http.get('/api/v1/nothing-here').set('Authorization', user.auth),
      404,
      'Not Found',
    );
  });

  it('should answer 405 {"detail":"Method Not Allowed"} with an Allow header for a known path', async () => {
    const response = await testApp.http.put('/health');
    expectDetail(response, 405, 'Method Not Allowed');
    expect(response.headers.allow).toBe('GET');
  });

  it('should answer 422 in the array form for malformed JSON', async () => {
    const response = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expectValidationError(response, [
      { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' },
    ]);
  });

  it('should answer 413 for a body over 100 kB', async () => {
    const response = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 'x'.repeat(101 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: expect.stringMatching(/too large/i) });
  });

  it('should answer 422 with string_too_long and string_type issues', async () => {
    const tooLong = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 'x'.repeat(101) });
    expectValidationError(tooLong, [
      {
        type: 'string_too_long',
        loc: ['body', 'name'],
        msg: 'String should have at most 100 characters',
      },
    ]);
    const wrongType = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 42 });
    expectValidationError(wrongType, [{ type: 'string_type', loc: ['body', 'name'] }]);
  });

  it('should answer 422 when the JSON body is not an object', async () => {
    const response = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send([1, 2]);
    expectValidationError(response, [{ type: 'model_attributes_type', loc: ['body'] }]);
  });

  it('should answer 422 json_invalid when the JSON body is a bare value, not an object or array', async () => {
    const response = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send('"just a string"');
    expectValidationError(response, [
      { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' },
    ]);
  });

  it('should answer 422 json_invalid when arrays and objects nest deeper than 64 levels', async () => {
    const post = (body: string) =>
      testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .set('Content-Type', 'application/json')
        .send(body);
    expect((await post(nestedBody(64))).status).toBe(200);
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    const bracketsInText = `{"search_query":"Has the \\"${'['.repeat(70)}\\" shipped?","state":"paused"}`;
    expect((await post(bracketsInText)).status).toBe(200);
    const tooDeep = await post(nestedBody(65));
    expectValidationError(tooDeep, [
      { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' },
    ]);
    expect(tooDeep.body).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body'],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Arrays and objects nest deeper than 64 levels' },
        },
      ],
    });
  });

  it('should answer 422, not 500, for a body nested 50,000 levels deep, with or without an Idempotency-Key', async () => {
    const deep = `{"extra":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    for (const key of [undefined, 'deep-json-key']) {
      const request = testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .set('Content-Type', 'application/json');
      if (key) request.set('Idempotency-Key', key);
      const response = await request.send(deep);
      expectValidationError(response, [{ type: 'json_invalid', loc: ['body'] }]);
    }
    expect(logLines.join('\n')).not.toMatch(/Maximum call stack|RangeError/);
  });

  it('should read application/*+json bodies and drop bodies of other types', async () => {
    const vendorJson = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/vnd.monitor+json; charset=utf-8')
      .send(JSON.stringify({ search_query: 'Has the example product shipped?', state: 'paused' }));
    expect(vendorJson.status).toBe(200);
    const plainText = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ search_query: 'Has the example product shipped?' }));
    expectValidationError(plainText, [{ type: 'missing', loc: ['body', 'search_query'] }]);
  });

  it('should answer 415 for a JSON body in another charset or a compressed one', async () => {
    const latin1 = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"name": "caf\u00e9"}');
    expectDetail(latin1, 415, 'Unsupported charset "LATIN1"');
    const gzip = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"name": "x"}');
    expectDetail(gzip, 415, 'Unsupported content encoding "gzip"');
  });

  it('should route paths whatever their case or trailing slash, and answer HEAD for GET routes', async () => {
    expect((await testApp.http.get('/HEALTH/')).status).toBe(200);
    const head = await testApp.http.head('/health');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
  });

  it('should answer a wrong method, OPTIONS included, with 405 and the allowed methods', async () => {
    const options = await testApp.http.options('/health');
    expectDetail(options, 405, 'Method Not Allowed');
    expect(options.headers.allow).toBe('GET');
    const keys = await testApp.http.put('/auth/api-keys').set('Authorization', user.auth);
    expectDetail(keys, 405, 'Method Not Allowed');
    expect(keys.headers.allow).toBe('GET, POST');
  });

  it('should answer 404 {"detail":"Not Found"} for an unknown path with a query string', async () => {
    expectDetail(await testApp.http.get('/no/such/path?page=2'), 404, 'Not Found');
  });

  it('should answer 400 in the detail shape for a path with broken percent-encoding', async () => {
    const response = await testApp.http
      .get('/api/v1/tasks/%E0%A4%A')
      .set('Authorization', user.auth);
    expectDetail(response, 400, /not a valid url/i);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('should answer GET /health with 200 and the database status, without credentials', async () => {
    const response = await testApp.http.get('/health').expect(200);
    expect(response.body).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('should serve the OpenAPI document and Swagger UI', async () => {
    const spec = await testApp.http.get('/openapi.json').expect(200);
    expect((spec.body as { openapi: string }).openapi).toMatch(/^3\./);
    expect(Object.keys((spec.body as { paths: object }).paths)).toEqual(
      expect.arrayContaining(['/auth/me', '/health']),
    );
    const ui = await testApp.http.get('/docs').redirects(1);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('should give every response a request id and echo a sane incoming one', async () => {
    const generated = await testApp.http.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await testApp.http.get('/health').set('X-Request-Id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const replaced = await testApp.http.get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('should never send a stack trace or the x-powered-by header', async () => {
    const response = await testApp.http.get('/no/such/path');
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
