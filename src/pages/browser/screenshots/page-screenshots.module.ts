import { Module } from '@nestjs/common';
import { PageScreenshotRepository } from './page-screenshot.repository';

/**
 * The last screenshot of each browser page (docs/pages.md, "Screenshots"), written by the check
 * pipeline and read by the API; apart from the page stage, which needs no database.
 */
@Module({
  providers: [PageScreenshotRepository],
  exports: [PageScreenshotRepository],
})
export class PageScreenshotsModule {}
