import type { NextFunction, Request, Response } from 'express';
import { RequestValidationException } from '../common/errors/validation-issue';
import { jsonBody } from '../common/http/json-body';

/**
 * The body of `POST /mcp`: read like every request body of the API (JSON, at most 100 kB: 413
 * otherwise), but JSON that does not parse is JSON-RPC's parse error, and a batch (which protocol
 * revision 2025-06-18 dropped) its invalid-request error, so one request holds one call and
 * counts once in the caller's limits. Mounted before the API's own body reader.
 */
export function mcpRequestBody() {
  const read = jsonBody();
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST') return next();
    read(request, response, (error?: unknown) => {
      if (error instanceof RequestValidationException)
        return void jsonRpcError(response, -32700, 'Parse error: Invalid JSON');
      if (error) return next(error);
      if (Array.isArray(request.body))
        return void jsonRpcError(response, -32600, 'Invalid Request: batches are not supported');
      next();
    });
  };
}

function jsonRpcError(response: Response, code: number, message: string): void {
  response.status(400).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
