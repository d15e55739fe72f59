import type { NextFunction, Request, Response } from 'express';
import { RequestValidationException } from '../common/errors/validation-issue';
import { mcpRequestBody } from './mcp-request-body';

/** What the middleware answered: the status and the JSON-RPC body, or that it passed on. */
function answerTo(refusal: RequestValidationException): { status?: number; body?: unknown } {
  const answer: { status?: number; body?: unknown } = {};
  const response = {
    status(code: number) {
      answer.status = code;
      return this;
    },
    json(body: unknown) {
      answer.body = body;
      return this;
    },
  } as unknown as Response;
  const refusingReader = (_request: Request, _response: Response, next: NextFunction) =>
    next(refusal);
  mcpRequestBody(refusingReader)({ method: 'POST' } as Request, response, () => undefined);
  return answer;
}

describe('mcpRequestBody', () => {
  it('should answer the parse error when the reader finds the JSON malformed', () => {
    const refusal = new RequestValidationException([
      { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {} },
    ]);
    expect(answerTo(refusal)).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON' },
      },
    });
  });

  it('should answer the invalid-params error when the reader refuses well-formed JSON', () => {
    const refusal = new RequestValidationException([
      { type: 'value_error', loc: ['body'], msg: 'Nested too deeply', input: null },
    ]);
    expect(answerTo(refusal)).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32602, message: 'Invalid params: Nested too deeply' },
      },
    });
  });
});
