import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

const HOST_PATTERN = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * `scheme://host` the client used, for absolute links in documents such as RSS. Behind a proxy
 * (TRUST_PROXY) Express reads X-Forwarded-Proto and X-Forwarded-Host. A Host header that is not
 * a plain host name is not echoed back.
 */
export const RequestOrigin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<Request>();
    const host = request.host;
    return `${request.protocol}://${host && HOST_PATTERN.test(host) ? host : 'localhost'}`;
  },
);
