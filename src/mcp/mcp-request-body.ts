import type { NextFunction, Request, Response } from 'express';
import { RequestValidationException } from '../common/errors/validation-issue';
import { jsonBody } from '../common/http/json-body';

type BodyReader = (request: Request, response: Response, next: NextFunction) => void;

/**
 * The body of `POST /mcp`: read like every request body of the API (JSON, at most 100 kB: 413
 * otherwise), but JSON that does not parse is JSON-RPC's parse error, JSON the reader refuses
 * for another reason (its depth, say) the invalid-params error, and a batch (which protocol
 * revision 2025-06-18 dropped) the invalid-request error, so one request holds one call and
 * counts once in the caller's limits. Mounted before the API's own body reader.
 */
export function mcpRequestBody(read: BodyReader = jsonBody()) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST') return next();
    read(request, response, (error?: unknown) => {
      if (error instanceof RequestValidationException) return void refusedBody(response, error);
      if (error) return next(error);
      if (Array.isArray(request.body))
        return void jsonRpcError(response, -32600, 'Invalid Request: batches are not supported');
      next();
    });
  };
}

function refusedBody(response: Response, refusal: RequestValidationException): void {
  const [issue] = refusal.issues;
  if (issue.type === 'json_invalid') jsonRpcError(response, -32700, 'Parse error: Invalid JSON');
  else jsonRpcError(response, -32602, `Invalid params: ${issue.msg}`);
}

function jsonRpcError(response: Response, code: number, message: string): void {
  response.status(400).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
