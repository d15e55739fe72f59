import { Module } from '@nestjs/common';
import { GeminiSearchProvider } from './gemini-search.provider';
import { GroundedSearchService } from './grounded-search.service';
import { SearchProvider } from './search-provider';

/**
 * The grounded-search adapter. Feature code depends on the abstract `SearchProvider` only, so a
 * test module or another provider can be swapped in with one `overrideProvider`.
 */
@Module({
  providers: [{ provide: SearchProvider, useClass: GeminiSearchProvider }, GroundedSearchService],
  exports: [SearchProvider, GroundedSearchService],
})
export class SearchModule {}
