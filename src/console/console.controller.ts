import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { authConfig, type AuthConfig } from '../auth/auth.config';
import { Public } from '../common/decorators/auth.decorators';
import { pageSecurityHeaders } from '../common/http/page-security-headers';
import { InjectConfig } from '../config/config-slice';
import { ConsoleAssets } from './console-assets';

/**
 * The console's own scripts and styles only, no inline script or style; uPlot's element styles
 * are set through the CSSOM, which `style-src` does not govern. The favicon is a `data:` URL.
 */
const SECURITY_HEADERS = pageSecurityHeaders("'self'");

/** Hashed file names change with their content: a browser may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

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
    response
      .set(SECURITY_HEADERS)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' })
      .send(html);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    const asset = this.assets.asset(file);
    if (!asset) throw new NotFoundException();
    response
      .set(SECURITY_HEADERS)
      .set({ 'Content-Type': asset.contentType, 'Cache-Control': IMMUTABLE })
      .send(asset.body);
  }
}
