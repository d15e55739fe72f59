import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../config/config-slice';
import { MetricsService } from '../../metrics/metrics.service';
import { PageStage } from '../../pages/page-stage.service';
import { verdictNeedsModel } from '../../pages/rules/page-rule';
import type { PageResult, PageSnapshot, PageTarget } from '../../pages/page.types';
import { pagesConfig, type PagesConfig } from '../../pages/pages.config';
import { decidePageCheck, type PageCheckDecision } from '../decisions/page-check';
import type { ClaimedCheck } from './claimed-check';

/** A page check's pages as read, and what the check does with them. */
export interface ReadPages {
  results: PageResult[];
  decision: PageCheckDecision;
}

/**
 * The page stage of a claimed check of a task with pages (docs/pages.md): reads its pages with no
 * database connection held, counts the fetches, and decides whether a model is called.
 */
@Injectable()
export class CheckPageReader {
  constructor(
    private readonly stage: PageStage,
    @InjectConfig(pagesConfig) private readonly settings: PagesConfig,
    private readonly metrics: MetricsService,
  ) {}

  async read(
    check: ClaimedCheck,
    pages: PageTarget[],
    snapshots: ReadonlyMap<string, PageSnapshot>,
  ): Promise<ReadPages> {
    const results = await this.stage.readPages(check.userId, pages, snapshots);
    for (const result of results) this.metrics.recordPageFetch(result.status, result.render);
    const decision = decidePageCheck({
      pages: results,
      rule: check.pageRule,
      valuesOnly: check.pageRule === null && !verdictNeedsModel(check),
      earlier: check.earlierVerdict,
      promptMaxChars: this.settings.promptMaxChars,
    });
    if (decision.kind === 'answered') this.metrics.recordCheckWithoutModel();
    return { results, decision };
  }
}
