import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { authConfig, type AuthConfig } from '../auth/auth.config';
import { Public } from '../common/decorators/auth.decorators';
import { InjectConfig } from '../config/config-slice';
import { ConsoleAssets } from './console-assets';

/**
 * Contract §9: the console's own scripts and styles only, no inline script or style; uPlot's
 * element styles are set through the CSSOM, which `style-src` does not govern. The favicon is a
 * `data:` URL.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed file names change with their content: a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function setSecurityHeaders(response: Response): void {
  response.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * The web console (README, "Console"): its page and its hashed assets, public like any static
 * file; everything it shows comes from the REST API with the person's own key. Routes are in the
 * URL fragment (`/console#/tasks`), so the page has one path. Not part of the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly assets: ConsoleAssets,
    @InjectConfig(authConfig) private readonly auth: AuthConfig,
  ) {}

  @Get()
  page(@Res() response: Response): void {
    const html = this.assets.indexHtml(this.auth.authDisabled);
    setSecurityHeaders(response);
    response
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' })
      .send(html);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    const asset = this.assets.asset(file);
    if (!asset) throw new NotFoundException();
    setSecurityHeaders(response);
    response
      .set({ 'Content-Type': asset.contentType, 'Cache-Control': IMMUTABLE })
      .send(asset.body);
  }
}
