import { HttpException, HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** A `Host` header: a name or a bracketed IPv6 address, then an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^[\]:@/\\\s]+)(?::\d{0,5})?$/i;

/**
 * With `AUTH_DISABLED=true` every caller is the administrator, so the service answers only
 * requests addressed to this machine or to `PUBLIC_URL` (docs/api.md, "Authentication"): a web
 * page whose own host name resolves to this machine (DNS rebinding) still sends its own name in
 * `Host`, and gets 421. The name is compared without its port, case-insensitively.
 */
export function localHostsOnly(publicUrl: string) {
  const allowed = new Set(['localhost', '127.0.0.1', '[::1]', new URL(publicUrl).hostname]);
  return (request: Request, _response: Response, next: NextFunction): void => {
    const name = HOST_HEADER.exec(request.headers.host ?? '')?.[1].toLowerCase();
    if (name !== undefined && allowed.has(name)) return next();
    next(new HttpException('Misdirected request', HttpStatus.MISDIRECTED));
  };
}
