import type { NextFunction, Request, Response } from 'express';
import { pageSecurityHeaders } from '../http/page-security-headers';

/**
 * The page that `@nestjs/swagger` writes for Swagger UI styles itself with inline `<style>`
 * elements and a `style` attribute, hence `'unsafe-inline'` for styles (never for scripts).
 */
const DOCS_HEADERS = pageSecurityHeaders("'self' 'unsafe-inline'");

/** Sets the security headers of Swagger UI's page and files on every answer under `/docs`. */
export function docsSecurityHeaders() {
  return (_request: Request, response: Response, next: NextFunction): void => {
    response.set(DOCS_HEADERS);
    next();
  };
}
