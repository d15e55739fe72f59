import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../config/config-slice';
import { MetricsService } from '../../metrics/metrics.service';
import { PageStage } from '../../pages/page-stage.service';
import { verdictNeedsModel } from '../../pages/rules/page-rule';
import type { PageResult, PageSnapshot, PageTarget } from '../../pages/page.types';
import { pagesConfig, type PagesConfig } from '../../pages/pages.config';
import {
  decidePageCheck,
  readsUnchangedTexts,
  type PageCheckDecision,
} from '../decisions/page-check';
import type { ClaimedCheck } from './claimed-check';

/** A page check's pages as read, and what the check does with them. */
export interface ReadPages {
  results: PageResult[];
  decision: PageCheckDecision;
}

/**
 * The page stage of a claimed check of a task with pages (docs/pages.md): reads its pages with no
 * database connection held, counts the fetches, loads the last good texts of the pages found the
 * same when a rule or the model reads them, and decides whether a model is called.
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
    const read = await this.stage.readPages(check.userId, pages, snapshots);
    for (const result of read) this.metrics.recordPageFetch(result.status, result.render);
    const inputs = {
      pages: read,
      rule: check.pageRule,
      valuesOnly: check.pageRule === null && !verdictNeedsModel(check),
      earlier: check.earlierVerdict,
    };
    const results = readsUnchangedTexts(inputs) ? await withLastTexts(read, snapshots) : read;
    const decision = decidePageCheck({
      ...inputs,
      pages: results,
      promptMaxChars: this.settings.promptMaxChars,
    });
    if (decision.kind === 'answered') this.metrics.recordCheckWithoutModel();
    return { results, decision };
  }
}

/** The pages found `same` with the last good text each stands for, loaded at once. */
function withLastTexts(
  results: PageResult[],
  snapshots: ReadonlyMap<string, PageSnapshot>,
): Promise<PageResult[]> {
  return Promise.all(
    results.map(async (result) => {
      const snapshot = snapshots.get(result.url);
      if (result.status !== 'same' || snapshot === undefined) return result;
      return { ...result, text: await snapshot.text() };
    }),
  );
}
