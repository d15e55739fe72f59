import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Refuses a path whose percent-encoding is broken before any route sees it, with the API's own
 * 400 (Express would otherwise fail while decoding a parameter, and only for some routes).
 */
export function decodablePath() {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const path = request.path;
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        return next(
          new BadRequestException('The request path is not a valid URL: broken percent-encoding'),
        );
      }
    }
    next();
  };
}
